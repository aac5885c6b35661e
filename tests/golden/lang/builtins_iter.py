print(list(zip([1, 2], [3, 4], [5, 6])), list(zip("abc", range(10))), dict(zip("ab", [1, 2])))
print(list(zip([1, 2], [3, 4], strict=True)))
for args in [([1, 2], [3]), ([1], [3, 4]), ([1, 2], [3, 4], [5])]:
    try:
        print(list(zip(*args, strict=True)))
    except ValueError as e:
        print("ValueError:", e)
print(list(enumerate("xyz", start=-1)), list(enumerate([])))
e = enumerate(["a", "b"])
print(next(e), next(e))
z = zip([1, 2], "ab")
print(next(z), list(z), list(z))
m = map(lambda v: v * 2, [1, 2, 3])
print(next(m), list(m))
f = filter(lambda v: v > 1, [0, 1, 2, 3])
print(list(f), list(f))
r = reversed([1, 2, 3])
print(next(r), list(r))
it = iter("ab")
print(next(it), next(it), next(it, None))
# unpacking an iterator
a, b, c = map(int, "123")
print(a + b + c)
first, *rest = zip("abc", "def")
print(first, rest)
# iterators are iterators of themselves
it2 = iter([1, 2, 3])
print(iter(it2) is it2, list(it2))
# zip of unequal lengths stops at shortest
print(list(zip(range(5), "ab", [True, False, None])))
# enumerate over dict items
for i, (k, v) in enumerate({"p": 1, "q": 2}.items()):
    print(i, k, v)
# map with multiple iterables of different lengths
print(list(map(max, [1, 5, 3], [4, 2])))
# sum with start of floats
print(sum(range(4), 0.5), sum([[1], [2, 3]], []))
# iterating a dict while building a new one
d = {"a": 1, "b": 2}
print({k.upper(): v * 10 for k, v in d.items()})
# range iteration with negative step and large values
print(list(range(10, -10, -4)), list(range(-2, 3)), sum(range(1000000)))
# all/any short-circuit
def check(v):
    print("check", v)
    return v
print(any([check(v) for v in [0, 1, 2]]), all(v > 0 for v in [1, 0, 2]))
print(list(map(str.upper, ["a", "b"])), list(filter(str.isdigit, "a1b2")))
