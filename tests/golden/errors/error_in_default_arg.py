def f(a, b=1 / 0):
    return a
