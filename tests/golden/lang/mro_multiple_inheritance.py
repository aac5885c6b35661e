class O: pass
class A(O): pass
class B(O): pass
class C(O): pass
class D(O): pass
class E(O): pass
class K1(A, B, C): pass
class K2(D, B, E): pass
class K3(D, A): pass
class Z(K1, K2, K3): pass
for cls in (K1, K2, K3, Z):
    print(cls.__name__, [k.__name__ for k in cls.__mro__])
class Base:
    def hello(self):
        return "Base"
    def chain(self):
        return ["Base"]
class Left(Base):
    def chain(self):
        return ["Left"] + super().chain()
class Right(Base):
    def hello(self):
        return "Right"
    def chain(self):
        return ["Right"] + super().chain()
class Child(Left, Right):
    def chain(self):
        return ["Child"] + super().chain()
c = Child()
print(c.hello(), c.chain(), Child.hello is Right.hello)
class Mixin:
    tag = "mixin"
    def describe(self):
        return f"{type(self).__name__} with {self.tag} and {self.name()}"
class Named:
    def name(self):
        return "named"
class Thing(Mixin, Named):
    pass
print(Thing().describe())
print(isinstance(Thing(), Mixin), issubclass(Thing, Named), issubclass(Thing, (int, Named)))
class X: pass
class Y(X): pass
for bases in [(X, Y), (Y, X)]:
    try:
        T = type("T", bases, {})
        print("ok", [k.__name__ for k in T.__mro__])
    except TypeError as e:
        print("TypeError:", e)
class P1:
    def __init__(self):
        self.order = getattr(self, "order", []) + ["P1"]
class P2:
    def __init__(self):
        self.order = getattr(self, "order", []) + ["P2"]
class Both(P1, P2):
    def __init__(self):
        P2.__init__(self)
        P1.__init__(self)
print(Both().order)
class Attr1:
    x = 1
class Attr2:
    x = 2
    y = 20
class Attrs(Attr1, Attr2):
    pass
print(Attrs.x, Attrs.y, Attrs().x)
