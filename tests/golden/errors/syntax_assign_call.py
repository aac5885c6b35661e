def f():
    pass
f() = 3
