# locals(), vars(), dir() and globals() in functions, class bodies and the module.
x = 1
def f(a, b=2):
    c = a + b
    def g():
        return c
    print(sorted(locals()), sorted(vars()), dir())
    return g
f(1)
class K:
    p = 1
    q = sorted(locals())
print(K.q, "x" in locals(), "f" in dir(), vars() is not None)
print(sorted(k for k in globals() if not k.startswith("__")))
