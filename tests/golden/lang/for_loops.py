# for loops over the iterables workloads use, with break/continue/else
for i in range(5):
    print(i, end=" ")
print()
for i in range(10, 0, -3):
    print(i, end=",")
print()
for i in range(0):
    print("never")
else:
    print("empty range else")
for x in [1, "a", 2.5, None]:
    print(repr(x))
for a, b in [(1, 2), (3, 4)]:
    print(a + b)
for i, (a, b) in enumerate([("x", 1), ("y", 2)], start=10):
    print(i, a, b)
for k in {"one": 1, "two": 2}:
    print(k)
for k, v in {"one": 1, "two": 2}.items():
    print(k, v)
for ch in "héllo":
    print(ch, end="|")
print()
for x, y in zip([1, 2, 3], "abc"):
    print(x, y)
for t in (1, 2, 3):
    if t == 2:
        continue
    print("t", t)
for n in range(2, 10):
    for d in range(2, n):
        if n % d == 0:
            print(n, "equals", d, "*", n // d)
            break
    else:
        print(n, "is prime")
# loop variable survives the loop
for last in range(3):
    pass
print("last", last)
# modifying the list being iterated (append while iterating, bounded)
items = [1, 2, 3]
for x in items:
    if x < 3:
        items.append(x + 10)
print(items)
# nested break only leaves the inner loop
out = []
for i in range(3):
    for j in range(3):
        if j == 1:
            break
        out.append((i, j))
print(out)
# reversed and sorted iteration
for x in reversed([1, 2, 3]):
    print(x, end=" ")
print()
for x in reversed(range(4)):
    print(x, end=" ")
print()
# iterating over a tuple of tuples with star target
for first, *rest in [(1, 2, 3), (4,), (5, 6)]:
    print(first, rest)
# target can be an attribute or a subscript
class Box:
    pass
b = Box()
for b.value in range(3):
    pass
print(b.value)
d = {}
for d["k"] in "xyz":
    pass
print(d)
lst = [0, 0]
for lst[0] in range(5):
    pass
print(lst)
# range object behaviour
r = range(1, 10, 2)
print(r, len(r), r[2], r[-1], list(r[1:3]), 5 in r, 4 in r)
print(range(5), range(0, 5, 2), list(range(-3)), list(range(5, 0, -1)))
print(range(3) == range(3), range(0) == range(2, 2))
print(r.start, r.stop, r.step, r.index(5), r.count(5))
