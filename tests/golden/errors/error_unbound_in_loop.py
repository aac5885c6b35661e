def f(items):
    for i in items:
        pass
    return i
f([])
