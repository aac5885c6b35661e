values = [1, 1.0, True, "s", None, [1], (1,), {"a": 1}, range(2), len, print]
for v in values:
    print(type(v).__name__, isinstance(v, int), isinstance(v, (float, str)), isinstance(v, object))
class A:
    pass
class B(A):
    pass
class C:
    pass
b = B()
print(isinstance(b, A), isinstance(b, (C, A)), isinstance(b, C), isinstance(b, ((C,), (A,))), isinstance(A, type))
print(type(b) is B, type(b) == A, type(B) is type, type(type) is type, type(int).__name__)
print(issubclass(B, A), issubclass(B, (C, A)), issubclass(bool, int), issubclass(int, object), issubclass(A, A))
print(type(1) is int, type(True) is bool, type(1.5) is float, type("") is str, type(None).__name__)
print(int.__name__, str.__name__, list.__name__, dict.__name__, tuple.__name__, float.__name__, bool.__name__, type.__name__, object.__name__)
print(isinstance(True, bool), isinstance(1, bool), isinstance(None, type(None)), isinstance([], list))
print(type(A).__name__, type(b).__name__, b.__class__ is B, B.__name__, B.__qualname__)
print(isinstance(ValueError("x"), Exception), isinstance(ValueError, type), issubclass(ValueError, Exception))
def f():
    pass
print(type(f).__name__, type(lambda: 0).__name__, type(A.__init__).__name__ if False else "", type(len).__name__)
print(type(b.__init__).__name__ if False else "", callable(A), callable(b))
print(repr(int), repr(str), repr(A) == "<class '__main__.A'>", str(B), repr(type(None)), repr(ValueError))
print(type(3)(4.7), type("x")(5), type([])((1, 2)), type(b)().__class__.__name__)
print(int("5") + float("1.5"), str(int) , isinstance(int, object))
for bad in [lambda: isinstance(1, "int"), lambda: issubclass(1, int), lambda: issubclass(int, 1), lambda: isinstance(1, (int, "x"))]:
    try:
        print(bad())
    except TypeError as e:
        print("TypeError", e)
class Meta:
    kind = "class attr"
m = Meta()
print(type(m).kind, m.__class__.kind, Meta.__dict__["kind"] if False else "")
print(type(print).__name__, type(abs), type(m.__init__).__name__ if False else "")
