# __slots__: instances take only the named attributes and have no __dict__, unless "__dict__"
# is a slot or a base class has one; a slot may not also be a class variable.
def attempt(name, f):
    try:
        print(name, f())
    except Exception as e:
        print(name, type(e).__name__, e)


class A:
    __slots__ = ("a",)


x = A()
attempt("unset slot", lambda: x.a)
x.a = 1
print("set slot", x.a)
attempt("other attribute", lambda: setattr(x, "b", 2))
print("has __dict__", hasattr(x, "__dict__"))


class B(A):
    pass


y = B()
y.b = 3
print("subclass without slots", y.b, hasattr(y, "__dict__"))


class C(A):
    __slots__ = ("c",)


z = C()
z.a, z.c = 4, 5
print("inherited slots", z.a, z.c)
attempt("subclass with slots", lambda: setattr(z, "d", 1))


class D:
    __slots__ = "only"


d = D()
d.only = "one string"
print(d.only)
attempt("string slots", lambda: setattr(d, "other", 1))


class E:
    __slots__ = ("e", "__dict__")


e = E()
e.e, e.free = 6, 7
print("with __dict__", e.e, e.free, sorted(e.__dict__))


class F:
    __slots__ = ("f",)

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value * 10)


f = F()
f.f = 2
print("object.__setattr__", f.f)
attempt("object.__setattr__ outside the slots", lambda: setattr(f, "g", 1))


def conflicting():
    class G:
        __slots__ = ("g",)
        g = 1


def not_strings():
    class H:
        __slots__ = ("h", 3)


attempt("class variable conflict", conflicting)
attempt("non-string slot", not_strings)
