try:
    {}['k']
except KeyError:
    raise RuntimeError('clean') from None
