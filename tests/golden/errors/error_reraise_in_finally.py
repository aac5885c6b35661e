def f():
    try:
        raise ValueError('inner')
    finally:
        print('cleanup')
f()
