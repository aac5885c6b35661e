class Point:
    """A point."""
    dims = 2
    def __init__(self, x, y=0):
        self.x = x
        self.y = y
    def norm2(self):
        return self.x ** 2 + self.y ** 2
    def move(self, dx, dy):
        self.x += dx
        self.y += dy
        return self
p = Point(3, 4)
print(p.x, p.y, p.norm2(), p.dims, Point.dims)
print(p.move(1, 1).norm2())
# class attribute vs instance attribute
q = Point(0)
q.dims = 3
print(p.dims, q.dims, Point.dims)
Point.dims = 5
print(p.dims, q.dims)
del q.dims
print(q.dims)
# shared mutable class attribute
class Bag:
    items = []
    def add(self, x):
        self.items.append(x)
b1, b2 = Bag(), Bag()
b1.add(1)
b2.add(2)
print(b1.items, b2.items, Bag.items)
# methods are functions looked up on the class
print(Point.norm2(p))
m = p.norm2
print(m())
# type and name info
print(type(p).__name__, Point.__name__, p.__class__.__name__, Point.__qualname__)
print(Point.__doc__)
print(p.__dict__)
print(type(p) is Point, isinstance(p, Point), isinstance(p, object))
# class with no __init__
class Empty:
    pass
e = Empty()
e.a = 1
print(e.a, vars(e))
# attribute errors
try:
    p.z
except AttributeError as err:
    print("AttributeError:", err)
try:
    Point.z
except AttributeError as err:
    print("AttributeError:", err)
try:
    Point()
except TypeError as err:
    print("TypeError:", err)
try:
    Empty(1)
except TypeError as err:
    print("TypeError:", err)
try:
    p.norm2(1)
except TypeError as err:
    print("TypeError:", err)
try:
    p.move(1)
except TypeError as err:
    print("TypeError:", err)
# __init__ returning non-None
class BadInit:
    def __init__(self):
        return 1
try:
    BadInit()
except TypeError as err:
    print("TypeError:", err)
# nested class
class Outer:
    class Inner:
        def hello(self):
            return "inner hello"
print(Outer.Inner().hello(), Outer.Inner.__qualname__)
# class body executes code
class Computed:
    values = [i * i for i in range(4)]
    total = sum(values)
    if total > 5:
        big = True
print(Computed.values, Computed.total, Computed.big)
# methods referencing class name
class Counter:
    instances = 0
    def __init__(self):
        Counter.instances += 1
Counter(); Counter(); Counter()
print(Counter.instances)
# method defined outside class
def external(self):
    return "external " + str(self.v)
class WithExt:
    v = 9
    method = external
print(WithExt().method())
# assigning a function to an instance does not bind
w = WithExt()
w.f = lambda: "instance lambda"
print(w.f())
# equality and identity of default objects
a1 = Empty()
a2 = Empty()
print(a1 == a1, a1 == a2, a1 != a2, a1 is a1)
# hasattr / getattr with default
print(hasattr(p, "x"), hasattr(p, "nope"), getattr(p, "nope", "dflt"))
print(Point.__module__, Point.__bases__[0].__name__)
