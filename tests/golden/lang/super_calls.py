class A:
    def __init__(self, v):
        self.v = v
        self.trail = ["A"]
    def f(self, x):
        return f"A.f({x})"
    @classmethod
    def make(cls):
        return cls.__name__
    @property
    def prop(self):
        return "A.prop"
class B(A):
    def __init__(self, v):
        super().__init__(v * 2)
        self.trail.append("B")
    def f(self, x):
        return "B>" + super().f(x + 1)
    @classmethod
    def make(cls):
        return "B:" + super().make()
    @property
    def prop(self):
        return "B>" + super().prop
class C(B):
    def __init__(self, v):
        super(C, self).__init__(v + 1)
        self.trail.append("C")
    def f(self, x):
        return "C>" + super().f(x * 10)
c = C(1)
print(c.v, c.trail, c.f(1), C.make(), c.prop)
# two-argument super skipping a level
class D(C):
    def f(self, x):
        return "D>" + super(B, self).f(x)
print(D(0).f(5))
# super in a method that is called via a subclass instance
class Base:
    def hello(self):
        return "base hello from " + type(self).__name__
class Mid(Base):
    def hello(self):
        return "mid/" + super().hello()
class Leaf(Mid):
    pass
print(Leaf().hello())
# super() with __repr__ and __str__
class R:
    def __repr__(self):
        return "R()"
class S(R):
    def __repr__(self):
        return "S<" + super().__repr__() + ">"
print(repr(S()), str(S()), [S()])
# super().__init__ with kwargs
class KW:
    def __init__(self, *, name, size=1):
        self.name, self.size = name, size
class KW2(KW):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
k = KW2(name="n", size=3)
print(k.name, k.size)
# super() on object methods
class O:
    def __init__(self):
        super().__init__()
        self.ok = True
    def __setattr__(self, name, value):
        super().__setattr__(name, value)
print(O().ok)
# super from a staticmethod-like context via explicit args
class P:
    def who(self):
        return "P"
class Q(P):
    def who(self):
        return "Q"
q = Q()
print(super(Q, q).who())
