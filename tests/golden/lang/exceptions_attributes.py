errors = [ValueError(), ValueError("one"), ValueError("a", 1), KeyError("k"), KeyError(), KeyError(1, 2),
          IndexError("list index out of range"), TypeError("t"), ZeroDivisionError("division by zero"),
          AttributeError("x"), NameError("n"), RuntimeError(None), StopIteration(5), AssertionError("msg"),
          NotImplementedError(), RecursionError("deep"), OverflowError("big"), ImportError("imp"),
          ModuleNotFoundError("mod"), Exception("generic"), BaseException("base"), UnboundLocalError("u")]
for e in errors:
    print(type(e).__name__, repr(e), str(e), e.args, len(e.args))
try:
    {}["missing"]
except KeyError as e:
    print(repr(e), e.args, str(e))
try:
    [][1]
except IndexError as e:
    print(repr(e), e.args)
try:
    1 / 0
except ZeroDivisionError as e:
    print(repr(e), e.args, isinstance(e, ArithmeticError))
try:
    int("q")
except ValueError as e:
    print(repr(e), e.args)
try:
    None.attr
except AttributeError as e:
    print(repr(e), e.args)
try:
    undefined_name_here
except NameError as e:
    print(repr(e), e.args)
e = ValueError("x")
e.args = ("replaced",)
print(e, repr(e))
print(str(KeyError("a'b")), str(KeyError('a"b')), repr(KeyError("")), str(KeyError("")))
print(ValueError("x") == ValueError("x"), type(ValueError("x")) is ValueError)
class E(Exception):
    def __init__(self, a, b):
        super().__init__(a)
        self.b = b
err = E(1, 2)
print(err.args, err.b, str(err), repr(err))
