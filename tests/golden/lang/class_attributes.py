class Config:
    lr = 0.1
    layers = [64, 32]
    name = "base"
    def describe(self):
        return f"{self.name}: lr={self.lr}, layers={self.layers}"
a = Config()
b = Config()
print(a.describe())
a.lr = 0.01
print(a.lr, b.lr, Config.lr)
a.layers.append(16)
print(b.layers, Config.layers)
b.layers = [1]
print(b.layers, Config.layers, a.layers)
Config.name = "changed"
print(a.name, b.name)
print(sorted(vars(a)), sorted(vars(b)))
class Sub(Config):
    lr = 0.5
s = Sub()
print(s.lr, s.name, s.layers, Sub.__bases__[0].__name__)
Config.lr = 99
print(s.lr, Config().lr)
del Sub.lr
print(s.lr)
class Counter:
    total = 0
    def __init__(self):
        self.total += 1
c1 = Counter()
c2 = Counter()
print(c1.total, c2.total, Counter.total)
class Constants:
    A = 1
    B = A * 2
    C = [A, B]
    D = {k: k * 2 for k in (1, 2)}
print(Constants.A, Constants.B, Constants.C, Constants.D)
class WithMethodAttr:
    def method(self):
        return self.value
    value = "defined after method"
print(WithMethodAttr().method())
print(hasattr(Config, "lr"), hasattr(Config, "nope"), getattr(Config, "name"))
setattr(Config, "dynamic", 7)
print(a.dynamic, Sub.dynamic)
print(Config.describe(a), callable(Config.describe))
print(type(Config.__dict__).__name__ if False else "", "lr" in vars(Config) if False else "")
class Scope:
    x = 10
    y = [x + i for i in range(2)] if False else x + 1
print(Scope.y)
class Outer:
    val = 1
    class Inner:
        val = 2
    def get(self):
        return self.Inner.val + self.val
print(Outer().get(), Outer.Inner.__name__)
