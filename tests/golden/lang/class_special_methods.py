# __new__, __reversed__, __getattr__, __init_subclass__, rich comparisons, hasattr with properties.
class Single:
    _inst = None
    def __new__(cls, *args):
        if cls._inst is None:
            cls._inst = super().__new__(cls)
            cls._inst.created = 0
        cls._inst.created += 1
        return cls._inst
    def __init__(self, v=0):
        self.v = v
s1 = Single(1)
s2 = Single(2)
print(s1 is s2, s1.v, s1.created)
class Rev:
    def __init__(self):
        self.items = [1, 2, 3]
    def __reversed__(self):
        return iter(self.items[::-1] + [0])
    def __len__(self):
        return 3
    def __getitem__(self, i):
        return self.items[i]
print(list(reversed(Rev())), len(Rev()), Rev()[1])
class BadStr:
    def __str__(self):
        return 5
try:
    str(BadStr())
except TypeError as e:
    print("TypeError:", e)
class P:
    @property
    def boom(self):
        raise AttributeError("inner")
    @property
    def other(self):
        raise ValueError("v")
print(hasattr(P(), "boom"), getattr(P(), "boom", "default"))
try:
    hasattr(P(), "other")
except ValueError as e:
    print("ValueError:", e)
class G:
    def __getattr__(self, name):
        return name * 2
g = G()
g.real = 1
print(g.xy, g.real, getattr(g, "q"))
class WithClassVar:
    count = 0
    def __init__(self):
        type(self).count += 1
WithClassVar(); WithClassVar()
print(WithClassVar.count)
class Base:
    def __init_subclass__(cls, **kw):
        cls.registered = True
class Sub(Base):
    pass
print(getattr(Sub, "registered", "not called"))
class N:
    def __init__(self, v):
        self.v = v
    def __lt__(self, o):
        return self.v < o.v
    def __eq__(self, o):
        return self.v == o.v
    def __repr__(self):
        return f"N({self.v})"
print(sorted([N(3), N(1), N(2)]), N(1) == N(1), N(1) != N(2), N(2) > N(1), max([N(5), N(9)]))
try:
    N(1) <= N(2)
except TypeError as e:
    print("TypeError:", e)
