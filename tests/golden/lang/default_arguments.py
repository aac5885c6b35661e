import math
evaluated = []
def stamp(tag):
    evaluated.append(tag)
    return tag
def f(a=stamp("a"), b=stamp("b")):
    return a, b
print(evaluated)
print(f(), f(1), f(b=2), evaluated)
def append_to(x, target=[]):
    target.append(x)
    return target
first = append_to(1)
second = append_to(2)
print(first, second, first is second, append_to(3, []))
def dict_default(k, v, d={}):
    d[k] = v
    return d
dict_default("a", 1)
print(dict_default("b", 2))
def safe(x, target=None):
    target = [] if target is None else target
    target.append(x)
    return target
print(safe(1), safe(2), safe(3, [0]))
n = 5
def snapshot(v=n):
    return v
n = 6
print(snapshot(), snapshot(7))
def uses_math(r=math.pi):
    return round(r, 3)
print(uses_math(), uses_math(1))
def mixed(a, b=2, *args, c=3, d, **kw):
    return a, b, args, c, d, kw
print(mixed(1, d=4), mixed(1, 2, 3, d=4, e=5), mixed(a=0, d=0, c=1))
def defaults_reference_earlier(a, b=None):
    return a if b is None else b
print(defaults_reference_earlier(1), defaults_reference_earlier(1, 2))
class C:
    def m(self, x=[]):
        x.append(len(x))
        return x
c = C()
print(c.m(), c.m(), C().m())
print(f.__defaults__ if hasattr(f, "__defaults__") else "", mixed.__kwdefaults__ if hasattr(mixed, "__kwdefaults__") else "")
lam = lambda x, y=[]: y.append(x) or y
print(lam(1), lam(2))
def none_default(x=None):
    return "none" if x is None else x
print(none_default(), none_default(0), none_default(False), none_default(""))
