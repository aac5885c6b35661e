def f(**kw):
    return kw['missing']
f(a=1)
