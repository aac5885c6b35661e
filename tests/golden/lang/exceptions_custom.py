class AppError(Exception):
    pass
class NotFound(AppError):
    def __init__(self, name):
        super().__init__(f"{name} not found")
        self.name = name
class Coded(AppError):
    def __init__(self, code, msg):
        self.code = code
        self.msg = msg
    def __str__(self):
        return f"[{self.code}] {self.msg}"
try:
    raise NotFound("widget")
except AppError as e:
    print(type(e).__name__, e, e.name, e.args, repr(e))
try:
    raise Coded(404, "missing")
except AppError as e:
    print(type(e).__name__, e, e.code, e.args, repr(e))
try:
    raise AppError
except Exception as e:
    print(repr(e), str(e), e.args)
try:
    raise AppError("a", "b")
except AppError as e:
    print(repr(e), str(e), e.args)
print(issubclass(NotFound, AppError), issubclass(NotFound, Exception), isinstance(NotFound("x"), AppError))
print([c.__name__ for c in NotFound.__mro__])
# exception with custom __repr__
class Pretty(Exception):
    def __repr__(self):
        return "Pretty!"
try:
    raise Pretty("p")
except Pretty as e:
    print(repr(e), str(e))
# exception class with class attributes
class WithAttr(ValueError):
    default_msg = "default message"
    def __init__(self, msg=None):
        super().__init__(msg or self.default_msg)
try:
    raise WithAttr()
except ValueError as e:
    print(e)
try:
    raise WithAttr("custom")
except ValueError as e:
    print(e)
# catching by parent built-in class
class MyKey(KeyError):
    pass
try:
    raise MyKey("mk")
except LookupError as e:
    print(type(e).__name__, e)
# exceptions as values in containers
errs = [ValueError("v"), TypeError("t"), AppError("a")]
print([type(x).__name__ for x in errs], [str(x) for x in errs])
# raising in __init__ of a custom class
class Validated:
    def __init__(self, v):
        if v < 0:
            raise NotFound("negative")
        self.v = v
try:
    Validated(-1)
except NotFound as e:
    print("caught", e)
# exception args with non-string
try:
    raise AppError(42)
except AppError as e:
    print(e, e.args, repr(e))
# empty args tuple vs single
print(str(AppError()), repr(AppError()), str(AppError(None)), repr(AppError(None)))
# setting attributes on exception instance
e = AppError("x")
e.extra = "data"
print(e.extra)
