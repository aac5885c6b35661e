class Greeter:
    greeting = "hello"
    def __init__(self, name):
        self.name = name
    def greet(self, punct="!"):
        return f"{self.greeting} {self.name}{punct}"
g = Greeter("ann")
bound = g.greet
print(bound(), bound("?"), Greeter.greet(g, "."), bound.__self__ is g, bound.__func__ is Greeter.greet)
print(type(bound).__name__, type(Greeter.greet).__name__, bound.__name__)
print(g.greet == g.greet, g.greet is g.greet, Greeter.greet is Greeter.greet)
h = Greeter("bob")
print(g.greet == h.greet)
methods = [g.greet, h.greet]
print([m("~") for m in methods])
print(list(map(Greeter.greet, [g, h])))
f = Greeter.greet
print(f(h))
try:
    Greeter.greet()
except TypeError as e:
    print("TypeError", e)
try:
    g.greet(1, 2)
except TypeError as e:
    print("TypeError", e)
try:
    g.greet(punct=1, extra=2)
except TypeError as e:
    print("TypeError", e)
class NoSelf:
    def method():
        return "no self"
try:
    NoSelf().method()
except TypeError as e:
    print("TypeError", e)
print(NoSelf.method())
# builtin bound methods
lst = [3, 1]
app = lst.append
app(2)
print(lst, type(app).__name__, app.__name__ if hasattr(app, "__name__") else "")
up = "abc".upper
print(up(), "x,y".split(",") == str.split("x,y", ","))
# methods stored in dicts and called later
ops = {"g": g.greet, "len": len}
print(ops["g"](), ops["len"]("four"))
# class method and static method binding
class K:
    count = 0
    @classmethod
    def inc(cls):
        cls.count += 1
        return cls.count
    @staticmethod
    def util(x):
        return x * 2
print(K.inc(), K().inc(), K.count, K.util(4), K().util(5))
inc = K.inc
print(inc(), type(inc).__name__)
class K2(K):
    pass
print(K2.inc(), K.count, K2.count)
# __call__ on instance vs class
class Callable:
    def __call__(self, x):
        return x + 1
c = Callable()
print(c(1), callable(c), callable(Callable))
# method resolution with instance attribute shadowing a method
class Shadowed:
    def m(self):
        return "method"
s = Shadowed()
s.m = lambda: "instance attr"
print(s.m(), Shadowed().m())
