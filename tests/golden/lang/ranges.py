r = range(2, 20, 3)
print(r, list(r), len(r), r[0], r[-1], r[2:4], r[::-1], r[::2], 5 in r, 6 in r, r.index(8), r.count(11))
print(list(range(5, -5, -2)), list(range(0)), list(range(-3, 0)), len(range(10, 0)), len(range(0, 10, -1)))
print(range(3) == range(0, 3), range(0, 6, 2) == range(0, 5, 2), range(1) == range(1, 2), range(0) == range(5, 5))
print(bool(range(0)), bool(range(1)), list(reversed(range(1, 10, 4))), sum(range(101)), max(range(7)), min(range(3, 9)))
print([i for i in range(10) if i % 4 == 0], list(enumerate(range(3, 6))), list(zip(range(3), range(10, 13))))
print(range(10)[3:100], range(10)[-3:], range(0, 100, 10)[::3], list(range(100)[95:]))
print(range(1, 4).start, range(1, 4).stop, range(1, 4).step, range(5).step, repr(range(-2, 2)), str(range(1, 9, 2)))
for bad in [lambda: range(), lambda: range(1, 2, 0), lambda: range("3"), lambda: range(1.0), lambda: range(10)[10],
            lambda: range(5).index(7), lambda: range(1, 2, 3, 4)]:
    try:
        bad()
    except (TypeError, ValueError, IndexError) as e:
        print(type(e).__name__, e)
total = 0
for i in range(10, 0, -1):
    total += i
print(total)
print(list(range(3)) * 2, [*range(3), *range(2)], tuple(range(2)))
