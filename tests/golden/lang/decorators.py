def trace(fn):
    def wrapped(*args, **kwargs):
        print("call", fn.__name__, args, kwargs)
        result = fn(*args, **kwargs)
        print("ret", result)
        return result
    return wrapped
@trace
def add(a, b):
    return a + b
add(1, b=2)
print(add.__name__)
def repeat(n):
    def deco(fn):
        def wrapped(*a):
            return [fn(*a) for _ in range(n)]
        return wrapped
    return deco
@repeat(3)
def hi(name):
    return "hi " + name
print(hi("bob"))
# stacked decorators apply bottom-up
def tag(t):
    def deco(fn):
        def wrapped():
            return "<" + t + ">" + fn() + "</" + t + ">"
        return wrapped
    return deco
@tag("b")
@tag("i")
def text():
    return "x"
print(text())
# decorator order of evaluation
def loud(name):
    print("evaluating", name)
    def deco(fn):
        print("applying", name)
        return fn
    return deco
@loud("first")
@loud("second")
def target():
    return "target"
print(target())
# decorator returning a non-function
def to_value(fn):
    return fn()
@to_value
def computed():
    return 42
print(computed)
# class decorator
def register(cls):
    cls.registered = True
    return cls
@register
class Thing:
    pass
print(Thing.registered)
# method decorators
class Calc:
    def __init__(self):
        self.calls = 0
    def counted(fn):
        def wrapped(self, *a):
            self.calls += 1
            return fn(self, *a)
        return wrapped
    @counted
    def double(self, x):
        return 2 * x
c = Calc()
print(c.double(3), c.double(4), c.calls)
# staticmethod and classmethod
class S:
    n = 10
    @staticmethod
    def st(x):
        return x + 1
    @classmethod
    def cm(cls, x):
        return cls.n + x
class T(S):
    n = 20
print(S.st(1), S().st(2), S.cm(1), T.cm(1), T().cm(2))
# decorator with attribute access expression
class Registry:
    def __init__(self):
        self.items = []
    def add(self, fn):
        self.items.append(fn.__name__)
        return fn
reg = Registry()
@reg.add
def one():
    pass
@reg.add
def two():
    pass
print(reg.items)
# decorator with function attributes
def mark(fn):
    fn.marked = "yes"
    return fn
@mark
def marked_fn():
    pass
print(marked_fn.marked)
