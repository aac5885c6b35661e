class Obj:
    cls_attr = "class"
    def method(self):
        return "method called"
o = Obj()
setattr(o, "x", 10)
print(o.x, getattr(o, "x"), getattr(o, "cls_attr"), getattr(o, "missing", None), hasattr(o, "x"), hasattr(o, "y"))
print(getattr(o, "method")(), getattr(Obj, "method")(o))
delattr(o, "x")
print(hasattr(o, "x"))
try:
    getattr(o, "x")
except AttributeError as e:
    print("AttributeError", e)
try:
    delattr(o, "x")
except AttributeError as e:
    print("AttributeError", e)
try:
    del o.nothing
except AttributeError as e:
    print("AttributeError", e)
setattr(Obj, "added", "to class")
print(o.added, Obj.added)
for name in ["a", "b", "c"]:
    setattr(o, name, name.upper())
print([getattr(o, n) for n in "abc"], sorted(vars(o)))
class Dyn:
    def __getattr__(self, name):
        if name.startswith("dyn_"):
            return name[4:]
        raise AttributeError(f"no {name}")
d = Dyn()
d.real = "real"
print(d.dyn_value, d.real, getattr(d, "dyn_x"), hasattr(d, "other"), getattr(d, "other", "dflt"))
try:
    d.other
except AttributeError as e:
    print("AttributeError", e)
class Guard:
    def __setattr__(self, name, value):
        if name == "locked":
            raise AttributeError("locked is read-only")
        object.__setattr__(self, name, value.upper() if isinstance(value, str) else value)
g = Guard()
g.name = "lower"
print(g.name)
try:
    g.locked = 1
except AttributeError as e:
    print("AttributeError", e)
class Plain:
    def __init__(self):
        self.direct = 1
s = Plain()
print(s.direct, s.__dict__)
print(getattr([1, 2], "count")(1), getattr("s", "upper")(), getattr(5, "real"))
try:
    setattr([], "x", 1)
except AttributeError as e:
    print("AttributeError", e)
try:
    (1).x = 2
except AttributeError as e:
    print("AttributeError", e)
try:
    "abc".nope
except AttributeError as e:
    print("AttributeError", e)
try:
    None.attr
except AttributeError as e:
    print("AttributeError", e)
try:
    Obj.nope
except AttributeError as e:
    print("AttributeError", e)
import math
try:
    math.nope
except AttributeError as e:
    print("AttributeError", e)
class WithGetattribute:
    def __init__(self):
        self.x = 1
print(getattr(WithGetattribute(), "x"), WithGetattribute().__class__.__name__)
# private name mangling
class Private:
    def __init__(self):
        self.__secret = "hidden"
    def reveal(self):
        return self.__secret
pv = Private()
print(pv.reveal(), hasattr(pv, "__secret"), pv._Private__secret)
