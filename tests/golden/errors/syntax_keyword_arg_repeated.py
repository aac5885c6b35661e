def f(**kw):
    pass
f(a=1, a=2)
