def deco(fn):
    def wrapped(*args):
        return fn(*args)
    return wrapped
@deco
def boom(x):
    return x.missing
boom(1)
