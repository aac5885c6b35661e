def f():
    try:
        raise ValueError('one')
    except ValueError:
        try:
            raise TypeError('two')
        except TypeError as e:
            raise KeyError('three') from e
f()
