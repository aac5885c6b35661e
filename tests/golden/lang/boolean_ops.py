print(True and False, True or False, not True, not 0, not "", not [1])
print(1 and 2, 0 and 2, 1 or 2, 0 or 2, None or "default", "" or [] or 0, "x" and "y" and "z")
print([] and 1, {} or {"a": 1}, 0.0 or -0.0, None and crash_if_evaluated)
def t(v):
    print("eval", v)
    return v
print(t(0) and t(1))
print(t(1) or t(2))
print(t(1) and t(0) and t(2))
print(t(0) or t("") or t("last"))
print(not t(None))
print(True + True, True == 1, False == 0, True is True, bool("False"), bool(-1), bool(0.0), bool(1e-300))
print(not 1 == 2, not (1 == 2), (not 1) == 2, 1 < 2 and 2 < 3, 1 > 2 or 3 > 2)
print(True and 1 or 2, False and 1 or 2, (True or False) and not False)
class Falsy:
    def __bool__(self):
        return False
class Sized:
    def __len__(self):
        return 0
class Default:
    pass
print(bool(Falsy()), bool(Sized()), bool(Default()), not Falsy(), Falsy() or "fallback")
if Sized():
    print("sized true")
else:
    print("sized false")
x = 5
print("x is", "positive" if x > 0 else "non-positive", "and", "even" if x % 2 == 0 else "odd")
print(None is None, None is not None, [] is list(), x is not None)
print(any([False, 0, ""]), all([True, 1, "x"]), bool([]), bool([[]]), bool(()), bool((0,)), bool({}), bool(range(0)))
class BadBool:
    def __bool__(self):
        return 1
try:
    bool(BadBool())
except TypeError as e:
    print("TypeError", e)
print(type(not 1).__name__, type(1 and 2.0).__name__, str(True), repr(False), int(True), float(False))
