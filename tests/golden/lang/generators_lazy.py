# Generator expressions are lazy generators: over an infinite generator, interleaved with the loop
# that consumes them, their first iterable checked at once, and their qualified names.
import itertools
def nat():
    n = 0
    while True:
        yield n
        n += 1
g = (x * x for x in nat())
print(next(g), next(g), next(g))
print(list(itertools.islice((x + 1 for x in nat() if x % 2), 4)))
try:
    (x for x in 5)
except TypeError as e:
    print("TypeError:", e)
ge = (y for y in [1, 2, 3])
print(type(ge).__name__, list(ge), list(ge))
print(sum(i for i in range(10)), max(len(w) for w in ["a", "bcd"]))
order = []
def src():
    for i in range(3):
        order.append(("src", i))
        yield i
for v in (s * 10 for s in src()):
    order.append(("loop", v))
print(order)
k = 10
def f():
    k = 5
    return list(a + k for a in range(3))
print(f(), [list((i, j) for j in range(2)) for i in range(2)])
def h():
    return (c for c in "ab")
print(repr(h()).split(" at ")[0])
print(repr((i for i in [])).split(" at ")[0])
