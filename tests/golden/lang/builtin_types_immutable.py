# Built-in types are immutable: setting or deleting their attributes is CPython's TypeError;
# user classes (also subclasses of built-in exceptions) stay open.
def f(self):
    return "patched"


for target, attr in ((object, "__repr__"), (list, "append"), (int, "foo"), (ValueError, "x"),
                     (type(None), "x"), (str, "join"), (type, "x"), (type(f), "x"), (range, "x"),
                     (dict, "get"), (Exception, "__str__")):
    try:
        setattr(target, attr, f)
        print("set", target.__name__, attr)
    except TypeError as e:
        print("TypeError:", e)
    try:
        delattr(target, attr)
        print("deleted", target.__name__, attr)
    except TypeError as e:
        print("TypeError:", e)
try:
    list.append = f
except TypeError as e:
    print("TypeError:", e)
try:
    del list.append
except TypeError as e:
    print("TypeError:", e)
print(repr([1, 2]), repr(object()).startswith("<object object at"))


class A:
    pass


class MyError(ValueError):
    pass


A.x = 1
A.__repr__ = f
MyError.code = 3
print(A.x, repr(A()), MyError.code)
del A.x
print(hasattr(A, "x"))
