a, b = 1, 2
print(a, b)
a, b = b, a
print(a, b)
(c, d), e = (3, 4), 5
print(c, d, e)
[f, g] = "xy"
print(f, g)
h, = [7]
print(h)
i, j, k = range(3)
print(i, j, k)
x = y = z = 0
print(x, y, z)
p = q = []
p.append(1)
print(q, p is q)
t = 1, 2, 3
print(t, type(t).__name__, len(t))
single = 5,
print(single, ())
m, n = {"k1": 1, "k2": 2}
print(m, n)
(a, b), (c, d) = [[1, 2], [3, 4]]
print(a + b + c + d)
def unpack2(v):
    a, b = v
    return a, b
def unpack3(v):
    a, b, c = v
    return a
for v in [(1, 2, 3), (1,), 5, None, "abc", {}]:
    try:
        print(unpack2(v))
    except (ValueError, TypeError) as err:
        print(type(err).__name__, err)
for v in [(1, 2), [1, 2, 3, 4]]:
    try:
        print(unpack3(v))
    except ValueError as err:
        print("ValueError", err)
# swapping through attributes and subscripts
class O:
    pass
o = O()
o.a, o.b = "A", "B"
o.a, o.b = o.b, o.a
print(o.a, o.b)
lst = [1, 2, 3]
lst[0], lst[2] = lst[2], lst[0]
print(lst)
i = 0
i, lst[i] = 1, "set"
print(i, lst)
# evaluation order: right side first, then targets left to right
def show(v):
    print("eval", v)
    return v
r = [0, 0]
r[show(0)], r[show(1)] = show("a"), show("b")
print(r)
# unpacking in function return
def divmod2(a, b):
    return a // b, a % b
qq, rr = divmod2(17, 5)
print(qq, rr)
# tuple comparisons and methods
tt = (1, 2, 2, 3)
print(tt.count(2), tt.index(3), tt + (4,), tt * 2, (1, 2) < (1, 2, 0), 2 in tt, tt[1:3], hash(tt) == hash((1, 2, 2, 3)))
print(((1,),), ((),), (1, (2, (3,))), tuple(), tuple([1]), repr((1,)), str(("a", 1.5)))
try:
    tt.index(9)
except ValueError as err:
    print("ValueError", err)
try:
    tt + [1]
except TypeError as err:
    print("TypeError", err)
