# Classes print with their qualified names, as CPython's: nested classes, classes defined in
# functions, their instances' default reprs, and type() of them.
class A:
    class B:
        def m(self):
            pass

    def f(self):
        def g():
            pass
        return g


def outer():
    class Local:
        pass
    return Local


print(A.B, A.B.__qualname__, A.B.__name__, A.f.__qualname__, A.B.m.__qualname__)
print(A().f().__qualname__, A().f().__name__)
print(repr(A.B()).split(" object at ")[0], repr(outer()()).split(" object at ")[0])
print(outer(), outer().__qualname__, type(outer()()))
print(repr(A().f()).split(" at ")[0])
X = type("X", (), {})
print(X, X.__qualname__, type(X()))
try:
    A.B().nope
except AttributeError as e:
    print(e)
