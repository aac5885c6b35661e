# functools: partial, reduce, wraps, lru_cache/cache, cached_property, total_ordering,
# cmp_to_key.
import functools
from functools import cached_property, lru_cache, partial, reduce, wraps


def power(base, exp=2, *, scale=1):
    return scale * base ** exp


square = partial(power, exp=2)
cube_scaled = partial(power, exp=3, scale=10)
print(square(5), cube_scaled(2), partial(power, 2)(5), partial(square, scale=3)(2))
print(square.func is power, square.args, square.keywords, partial(partial(power, 2), 3).args)
print(reduce(lambda a, b: a * b, [1, 2, 3, 4]), reduce(lambda a, b: a + b, [], 10))
print(reduce(lambda a, b: a + b, ["x"]))
try:
    reduce(lambda a, b: a, [])
except TypeError as e:
    print("TypeError:", e)


def logged(fn):
    @wraps(fn)
    def inner(*args, **kwargs):
        print("calling", fn.__name__)
        return fn(*args, **kwargs)
    return inner


@logged
def add(a, b):
    """Adds two numbers."""
    return a + b


print(add(2, 3), add.__name__, add.__doc__, add.__wrapped__.__name__, add.__qualname__)
calls = []


@lru_cache(maxsize=None)
def fib(n):
    calls.append(n)
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(30), len(calls), fib.cache_info())
fib.cache_clear()
print(fib.cache_info())


@lru_cache(maxsize=2)
def ident(x):
    calls.append(x)
    return x


calls.clear()
for x in (1, 2, 1, 3, 2, 1):
    ident(x)
print(calls, ident.cache_info())


@functools.cache
def twice(x):
    return 2 * x


print(twice(4), twice(4), twice.cache_info().hits)


@lru_cache
def bare(x):
    return x + 1


print(bare(1), bare.__name__)


class Model:
    def __init__(self, n):
        self.n = n
        self.computed = 0

    @cached_property
    def table(self):
        self.computed += 1
        return [i * i for i in range(self.n)]

    @lru_cache(maxsize=8)
    def scaled(self, k):
        return self.n * k


m = Model(4)
print(m.table, m.table, m.computed, m.scaled(3), m.scaled(3))
m.table = "replaced"
print(m.table)
del m.table
print(m.table, m.computed)


@functools.total_ordering
class Size:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return self.v == other.v

    def __lt__(self, other):
        return self.v < other.v


print(Size(1) <= Size(2), Size(3) > Size(2), Size(2) >= Size(2), Size(2) > Size(2))


def by_length(a, b):
    return len(a) - len(b)


print(sorted(["ccc", "a", "bb"], key=functools.cmp_to_key(by_length)))
