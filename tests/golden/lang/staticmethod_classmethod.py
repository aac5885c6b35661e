class Temperature:
    unit = "C"
    instances = 0
    def __init__(self, degrees):
        self.degrees = degrees
        Temperature.instances += 1
    @classmethod
    def from_fahrenheit(cls, f):
        return cls(round((f - 32) * 5 / 9, 2))
    @classmethod
    def describe(cls):
        return f"{cls.__name__} in {cls.unit}"
    @staticmethod
    def is_freezing(degrees):
        return degrees <= 0
    def __repr__(self):
        return f"{type(self).__name__}({self.degrees})"
class Kelvin(Temperature):
    unit = "K"
t = Temperature.from_fahrenheit(212)
k = Kelvin.from_fahrenheit(32)
print(t, k, type(k).__name__, Temperature.instances)
print(Temperature.describe(), Kelvin.describe(), k.describe())
print(Temperature.is_freezing(-1), t.is_freezing(5), Kelvin.is_freezing(0))
sm = Temperature.__dict__["is_freezing"] if False else None
print(type(Temperature.is_freezing).__name__, type(Temperature.from_fahrenheit).__name__)
f = Temperature.from_fahrenheit
print(f(50), f.__self__ is Temperature)
class Registry:
    items = []
    @classmethod
    def register(cls, item):
        cls.items.append(item)
        return item
    @staticmethod
    def helper():
        return "static helper"
Registry.register("a")
Registry().register("b")
print(Registry.items, Registry.helper(), Registry().helper())
def plain(x):
    return x * 2
class Holder:
    twice = staticmethod(plain)
    maker = classmethod(lambda cls, v: (cls.__name__, v))
print(Holder.twice(4), Holder().twice(5), Holder.maker(1), Holder().maker(2))
try:
    Temperature.is_freezing()
except TypeError as e:
    print("TypeError:", e)
try:
    Temperature.describe(1)
except TypeError as e:
    print("TypeError:", e)
