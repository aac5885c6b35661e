def f(a, b):
    return a
args = [1, 2, 3]
f(*args)
