# contextlib.contextmanager on generator functions: enter, exit, exceptions thrown in at the
# yield, suppression, and use as a decorator.
from contextlib import contextmanager


@contextmanager
def tag(name):
    print("enter", name)
    try:
        yield name.upper()
    finally:
        print("exit", name)


with tag("a") as t:
    print("inside", t)

try:
    with tag("b"):
        raise ValueError("x")
except ValueError as e:
    print("caught", e)


@contextmanager
def swallow(kind):
    try:
        yield
    except kind as e:
        print("swallowed", type(e).__name__, e)


with swallow(KeyError):
    raise KeyError("missing")
print("after swallow")


@tag("decorated")
def work(x):
    print("working on", x)
    return x * 2


print(work(21))


@contextmanager
def no_yield():
    if False:
        yield


try:
    with no_yield():
        pass
except RuntimeError as e:
    print("RuntimeError:", e)
