def f(a, *, key):
    return a
f(1)
