def broken(fn):
    raise RuntimeError('decorator failed')
@broken
def g():
    pass
