class Temp:
    def __init__(self, c):
        self._c = c
    @property
    def celsius(self):
        return self._c
    @celsius.setter
    def celsius(self, v):
        if v < -273.15:
            raise ValueError("below absolute zero")
        self._c = v
    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32
t = Temp(100)
print(t.celsius, t.fahrenheit)
t.celsius = 0
print(t.celsius, t.fahrenheit)
try:
    t.celsius = -300
except ValueError as e:
    print("ValueError:", e)
try:
    t.fahrenheit = 5
except AttributeError as e:
    print("AttributeError:", e)
print(type(Temp.celsius).__name__)
# property via property()
class Circle:
    def __init__(self, r):
        self.r = r
    def get_area(self):
        return round(3.14159 * self.r ** 2, 3)
    area = property(get_area)
print(Circle(2).area)
# property inheritance and overriding
class Base:
    @property
    def name(self):
        return "base"
class Derived(Base):
    @property
    def name(self):
        return "derived+" + super().name
print(Base().name, Derived().name)
# property that raises AttributeError-like error
class Lazy:
    def __init__(self):
        self._cache = None
    @property
    def value(self):
        if self._cache is None:
            print("computing")
            self._cache = 42
        return self._cache
lz = Lazy()
print(lz.value, lz.value)
# property takes precedence over instance dict
class Shadow:
    @property
    def x(self):
        return "property"
s = Shadow()
try:
    s.x = "instance"
except AttributeError as e:
    print("AttributeError:", e)
print(s.x)
# deleter
class WithDel:
    def __init__(self):
        self._v = 1
    @property
    def v(self):
        return self._v
    @v.deleter
    def v(self):
        print("deleting")
        del self._v
wd = WithDel()
del wd.v
print(hasattr(wd, "_v"))
