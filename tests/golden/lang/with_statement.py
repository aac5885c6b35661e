class CM:
    def __init__(self, name, suppress=False):
        self.name = name
        self.suppress = suppress
    def __enter__(self):
        print("enter", self.name)
        return self.name.upper()
    def __exit__(self, exc_type, exc, tb):
        print("exit", self.name, exc_type.__name__ if exc_type else None, exc)
        return self.suppress
with CM("a") as v:
    print("body", v)
with CM("b"):
    print("no target")
with CM("outer") as o, CM("inner") as i:
    print("both", o, i)
try:
    with CM("raises"):
        raise ValueError("inside")
except ValueError as e:
    print("propagated", e)
with CM("suppress", suppress=True):
    raise KeyError("hidden")
print("after suppress")
# exit runs on return/break/continue
def ret():
    with CM("ret"):
        return "returned"
print(ret())
for k in range(2):
    with CM("loop" + str(k)):
        if k == 0:
            continue
        break
# nested with where inner suppresses
with CM("out"):
    with CM("in", suppress=True):
        1 / 0
    print("continues in outer")
# exception in __enter__
class BadEnter:
    def __enter__(self):
        raise RuntimeError("enter failed")
    def __exit__(self, *a):
        print("never")
try:
    with BadEnter():
        print("never body")
except RuntimeError as e:
    print("RuntimeError", e)
# exception in __exit__ replaces
class BadExit:
    def __enter__(self):
        return self
    def __exit__(self, *a):
        raise TypeError("exit failed")
try:
    with BadExit():
        raise ValueError("body")
except TypeError as e:
    print("TypeError", e, "context", repr(e.__context__))
# target unpacking
class Pair:
    def __enter__(self):
        return (1, 2)
    def __exit__(self, *a):
        return False
with Pair() as (p, q):
    print(p, q)
# object without protocol
try:
    with 5:
        pass
except (TypeError, AttributeError) as e:
    print(type(e).__name__, e)
class OnlyEnter:
    def __enter__(self):
        return 1
try:
    with OnlyEnter():
        pass
except (TypeError, AttributeError) as e:
    print(type(e).__name__, e)
# truthy non-bool return suppresses
class Truthy:
    def __enter__(self):
        return None
    def __exit__(self, *a):
        return 1
with Truthy() as nothing:
    raise IndexError
print("suppressed by truthy", nothing)
# parenthesized multiple items
with (CM("p1") as a1,
      CM("p2") as a2):
    print(a1, a2)
