a = [3, 1, 2]
a.append(4)
a.extend([5, 6])
a.extend("ab")
a.insert(0, "first")
a.insert(100, "last")
a.insert(-1, "before last")
print(a)
print(a.pop(), a.pop(0), a.pop(-2), a)
a.remove("a")
print(a, a.index(2), a.count(1), len(a))
b = a.copy()
b.reverse()
print(a, b)
a.clear()
print(a, b)
nums = [5, 3, 8, 1]
nums.sort()
print(nums, nums[::-1], sorted(nums, reverse=True))
print([1, 2] + [3], [0] * 3, [[]] * 2, 2 * [1, 2], [1, 2] == [1, 2], [1, 2] < [1, 3])
c = [1, 2]
c += [3]
c += (4, 5)
c *= 2
print(c)
print(c.index(5, 5), [1, 2, 3].index(3, -1))
for bad in [lambda: [].pop(), lambda: [1].pop(5), lambda: [1].remove(2), lambda: [1].index(9),
            lambda: [1] + (2,), lambda: [1] * 1.5, lambda: [].index(1, 0, 0), lambda: [1, 2].insert(1)]:
    try:
        bad()
    except (IndexError, ValueError, TypeError) as e:
        print(type(e).__name__, e)
# nested lists and identity
m = [[1, 2], [3, 4]]
flat = [x for row in m for x in row]
print(m, flat, m[1][0], len(m))
n = m.copy()
n[0].append(99)
print(m, n, n is m, n[0] is m[0])
# list equality, membership, multiplication of nested
print([1, [2]] == [1, [2]], 2 in [1, 2], [2] in [[1], [2]], [] in [[]], [1, 2, 3][-1])
# list of mixed types printing
print([1, 2.0, "three", None, True, (4,), [5], {"six": 6}])
print(repr([1, "a"]), str([1, "a"]), list.__name__, [].__class__.__name__)
# list from range and slices
r = list(range(10))
print(r[::3], r[-3:], sum(r), max(r), min(r), len(r))
del r[0]
del r[-1]
print(r)
# self-referential list repr
s = [1]
s.append(s)
print(s)
# list methods returning None
print([3, 1].sort(), [1].append(2), [1].extend([]), [1].reverse(), [1].insert(0, 0), [1].clear())
x = [1, 2, 3]
print(x.pop(1), x)
y = [0] * 5
y[1:3] = [7]
print(y, [i for i, v in enumerate(y) if v == 0])
print(list(reversed(x)), x[::-1] == list(reversed(x)))
print([1, 2, 3].count(4), ["a", "b", "a"].count("a"), [1, 1.0, True].count(1))
