class Vec:
    def __init__(self, *c):
        self.c = list(c)
    def __repr__(self):
        return "Vec(" + ", ".join(repr(x) for x in self.c) + ")"
    def __str__(self):
        return "<" + " ".join(str(x) for x in self.c) + ">"
    def __len__(self):
        return len(self.c)
    def __getitem__(self, i):
        if isinstance(i, slice):
            return Vec(*self.c[i])
        return self.c[i]
    def __setitem__(self, i, v):
        self.c[i] = v
    def __delitem__(self, i):
        del self.c[i]
    def __iter__(self):
        return iter(self.c)
    def __contains__(self, v):
        return v in self.c
    def __eq__(self, other):
        return isinstance(other, Vec) and self.c == other.c
    def __hash__(self):
        return hash(tuple(self.c))
    def __add__(self, other):
        if isinstance(other, Vec):
            return Vec(*[a + b for a, b in zip(self.c, other.c)])
        return Vec(*[a + other for a in self.c])
    def __radd__(self, other):
        return self.__add__(other)
    def __sub__(self, other):
        return Vec(*[a - b for a, b in zip(self.c, other.c)])
    def __mul__(self, k):
        return Vec(*[a * k for a in self.c])
    def __rmul__(self, k):
        return self * k
    def __matmul__(self, other):
        return sum(a * b for a, b in zip(self.c, other.c))
    def __truediv__(self, k):
        return Vec(*[a / k for a in self.c])
    def __floordiv__(self, k):
        return Vec(*[a // k for a in self.c])
    def __mod__(self, k):
        return Vec(*[a % k for a in self.c])
    def __pow__(self, k):
        return Vec(*[a ** k for a in self.c])
    def __neg__(self):
        return Vec(*[-a for a in self.c])
    def __pos__(self):
        return self
    def __abs__(self):
        return Vec(*[abs(a) for a in self.c])
    def __invert__(self):
        return Vec(*[~a for a in self.c])
    def __bool__(self):
        return any(self.c)
    def __lt__(self, other):
        return sum(self.c) < sum(other.c)
    def __le__(self, other):
        return sum(self.c) <= sum(other.c)
    def __call__(self, scale=1):
        return [a * scale for a in self.c]
    def __and__(self, other):
        return "and"
    def __or__(self, other):
        return "or"
    def __xor__(self, other):
        return "xor"
    def __lshift__(self, other):
        return "lshift"
    def __rshift__(self, other):
        return "rshift"
v = Vec(1, 2, 3)
w = Vec(4, 5, 6)
print(v, repr(v), str(v), [v], (v,), {"k": v}, f"{v} {v!r}")
print(len(v), v[0], v[-1], v[1:], 2 in v, 9 in v, list(v), [x * 2 for x in v])
print(v + w, v + 1, 1 + v, v - w, v * 2, 3 * v, v @ w, w / 2, w // 2, w % 4, v ** 2)
print(-v, +v, abs(Vec(-1, 2)), ~v, bool(v), bool(Vec(0, 0)), not Vec(0))
print(v == Vec(1, 2, 3), v != w, v == 1, v < w, v > w, v <= v, v >= w, sorted([w, v]))
print(v(), v(scale=10), v & w, v | w, v ^ w, v << 1, v >> 1)
print(hash(v) == hash(Vec(1, 2, 3)), {v: "found"}[Vec(1, 2, 3)], sum([v, w], Vec(0, 0, 0)))
v[0] = 100
del v[1]
print(v, max(Vec(3, 9, 2)), min(Vec(3, 9, 2)), sorted(Vec(3, 1, 2)), sum(Vec(1, 2)))
a, b = Vec(7, 8)
print(a, b, *Vec(1, 2), dict(zip(Vec("a", "b"), Vec(1, 2))))
# reflected operations and NotImplemented
class Meters:
    def __init__(self, v):
        self.v = v
    def __add__(self, other):
        if isinstance(other, Meters):
            return Meters(self.v + other.v)
        return NotImplemented
    def __radd__(self, other):
        if other == 0:
            return self
        return NotImplemented
    def __eq__(self, other):
        if not isinstance(other, Meters):
            return NotImplemented
        return self.v == other.v
    def __repr__(self):
        return f"{self.v}m"
print(Meters(1) + Meters(2), sum([Meters(1), Meters(2)]), Meters(1) == Meters(1), Meters(1) == 1, Meters(2) != Meters(3))
try:
    Meters(1) + 1
except TypeError as e:
    print("TypeError", e)
try:
    "a" + Meters(1)
except TypeError as e:
    print("TypeError", e)
try:
    Meters(1) < Meters(2)
except TypeError as e:
    print("TypeError", e)
try:
    len(Meters(1))
except TypeError as e:
    print("TypeError", e)
try:
    Meters(1)[0]
except TypeError as e:
    print("TypeError", e)
try:
    Meters(1)()
except TypeError as e:
    print("TypeError", e)
try:
    iter(Meters(1))
except TypeError as e:
    print("TypeError", e)
try:
    -Meters(1)
except TypeError as e:
    print("TypeError", e)
try:
    {Meters(1): 1}
except TypeError as e:
    print("TypeError", e)
# __getitem__-only iteration (old protocol)
class Seq:
    def __getitem__(self, i):
        if i >= 3:
            raise IndexError
        return i * 10
print(list(Seq()), 20 in Seq(), [x for x in Seq()])
# __iter__ returning a custom iterator with __next__
class CountDown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return self
    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1
print(list(CountDown(3)), [x for x in CountDown(2)], sum(CountDown(4)))
for x in CountDown(2):
    print("cd", x)
it = CountDown(2)
print(next(it), next(it), next(it, "done"))
# __eq__ without __hash__ makes instances unhashable
class EqOnly:
    def __eq__(self, other):
        return True
try:
    hash(EqOnly())
except TypeError as e:
    print("TypeError", e)
# __len__ returning non-int / negative
class BadLen:
    def __len__(self):
        return -1
try:
    len(BadLen())
except ValueError as e:
    print("ValueError", e)
# __repr__ used by str when __str__ missing; __str__ not used by repr
class OnlyRepr:
    def __repr__(self):
        return "OnlyRepr!"
class OnlyStr:
    def __str__(self):
        return "OnlyStr!"
print(str(OnlyRepr()), repr(OnlyRepr()), str(OnlyStr()), [OnlyStr()][0].__str__(), "%s %r" % (OnlyRepr(), OnlyRepr()))
# __index__ for slicing and range
class Idx:
    def __index__(self):
        return 2
print([10, 20, 30][Idx()], list(range(Idx())), "abc"[Idx():], hex(Idx()))
# __contains__ falling back to __iter__
class IterOnly:
    def __iter__(self):
        return iter([1, 2])
print(2 in IterOnly(), 3 in IterOnly())
# __setitem__ with tuple keys and slices
class Grid:
    def __init__(self):
        self.d = {}
    def __setitem__(self, k, v):
        self.d[repr(k)] = v
    def __getitem__(self, k):
        return self.d.get(repr(k), k)
g = Grid()
g[1, 2] = "tuple key"
g[1:2] = "slice key"
print(g[1, 2], g[1:2], g[::2], g[...], sorted(g.d))
# __int__, __float__, __str__ conversions
class Num:
    def __int__(self):
        return 7
    def __float__(self):
        return 7.5
    def __index__(self):
        return 7
print(int(Num()), float(Num()), [0] * 8 and 1)
# in-place operators on custom classes
class Box:
    def __init__(self, v):
        self.v = v
    def __imul__(self, k):
        self.v *= k
        return self
    def __isub__(self, k):
        self.v -= k
        return self
bx = Box(3)
bx *= 4
bx -= 2
print(bx.v)
