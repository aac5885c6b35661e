s = "abcdefgh"
lst = list(range(10))
t = tuple(range(6))
print(s[1:4], s[:3], s[5:], s[-3:], s[:-3], s[::2], s[::-1], s[1::3], s[-1:-4:-1])
print(lst[2:8:2], lst[::-1], lst[8:2:-2], lst[-100:100], lst[5:2], lst[::-3])
print(t[1:3], t[::-1], t[4:], t[:0])
print(s[100:], s[-100:2], lst[3:3], s[::100])
print(lst[None:None:None], s[None:2], s[slice(1, 5, 2)], lst[slice(3)])
sl = slice(1, 8, 3)
print(sl, sl.start, sl.stop, sl.step, lst[sl], slice(None), slice(1, 2))
print(s[-1], s[0], lst[-1], t[-6])
print(sl.indices(5), slice(None, None, -1).indices(4))
for bad in [lambda: s[10], lambda: lst[-11], lambda: t[6], lambda: lst[::0], lambda: lst["a"],
            lambda: s[1.5], lambda: t[None]]:
    try:
        bad()
    except (IndexError, ValueError, TypeError) as e:
        print(type(e).__name__, e)
# slicing creates copies for lists
a = [1, 2, 3]
b = a[:]
b.append(4)
print(a, b, a is b, a[:] == a)
# nested slicing
m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
print(m[1:][0][1:], [row[1:] for row in m[:2]])
# negative steps with bounds
print(lst[7:1:-1], lst[-2:-8:-2], lst[1:7:-1])
# unicode slicing
u = "héllo wörld"
print(u[1:5], u[::-1], len(u))
# range slicing
r = range(0, 20, 3)
print(r[2:5], r[::-1], r[-2:], list(r[1:4]))
# bool and big index
print(lst[True], lst[False], s[True:])
