# Annotations are evaluated as CPython 3.11 does: a def's when it runs (parameters in order,
# then 'return'), module and class bodies' after the assignment into __annotations__; a
# function body's never.
order = []


def note(label):
    order.append(label)
    return label


def f(a: note("a"), b: note("b") = note("default b"), *args: note("args"),
      c: note("c"), **kw: note("kw")) -> note("ret"):
    local: undefined_name = 1  # never evaluated inside a function
    return local


print(order)
print(f.__annotations__)
print(f(1, c=2))


def g(x, y=2):
    return x


print(g.__annotations__, g.__annotations__ is g.__annotations__)


class Config:
    size: int = 3
    name: str
    ratio: float = 0.5
    (paren): int = 4
    size: int = 7


print(Config.__annotations__, Config.size, Config.paren)
print("name" in Config.__dict__)
top: list = [1]
print(__annotations__)
try:
    bad: missing_name = 1
except NameError as e:
    print("NameError:", e)
print(bad)
print(list[int], dict[str, list[int]], tuple[int, ...], tuple[()], type[int])
print(int | None, None | str, int | str | int)
print(list[int] == list[int], (int | None) == (None | int))


def h(x: list[int], y: int | None = None) -> tuple[int, str]:
    return x


print(h.__annotations__)
print(isinstance(3, int | None), isinstance(None, int | None), isinstance("s", int | float),
      isinstance(2.5, (str, int | float)), issubclass(bool, int | str), issubclass(str, int | None))
