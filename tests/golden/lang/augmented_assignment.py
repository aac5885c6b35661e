x = 10
x += 5; print(x)
x -= 3; print(x)
x *= 2; print(x)
x /= 4; print(x)
x //= 2; print(x)
x **= 3; print(x)
x %= 5; print(x)
n = 0b1100
n &= 0b1010; print(n)
n |= 1; print(n)
n ^= 0b1111; print(n)
n <<= 3; print(n)
n >>= 2; print(n)
s = "ab"
s += "cd"
s *= 2
print(s)
lst = [1]
alias = lst
lst += [2]
print(lst, alias, lst is alias)
tup = (1,)
talias = tup
tup += (2,)
print(tup, talias, tup is talias)
d = {"k": 1}
d["k"] += 10
d.setdefault("l", []).append(5)
print(d)
class C:
    v = 1
c = C()
c.v += 1
print(c.v, C.v)
C.v *= 10
print(C.v)
m = [[1, 2], [3, 4]]
m[1][0] -= 10
print(m)
# target evaluated once
calls = []
def idx():
    calls.append(1)
    return 0
arr = [5]
arr[idx()] += 1
print(arr, len(calls))
# custom __iadd__ and fallback to __add__
class Acc:
    def __init__(self, v):
        self.v = v
    def __iadd__(self, other):
        self.v += other
        return self
    def __repr__(self):
        return f"Acc({self.v})"
class Plain:
    def __init__(self, v):
        self.v = v
    def __add__(self, other):
        return Plain(self.v + other)
    def __repr__(self):
        return f"Plain({self.v})"
a = Acc(1)
a_id = a
a += 5
p = Plain(1)
p_old = p
p += 5
print(a, a is a_id, p, p is p_old)
try:
    t = (1, [2])
    t[1] += [3]
except TypeError as e:
    print("TypeError", e, t)
try:
    u = None
    u += 1
except TypeError as e:
    print("TypeError", e)
try:
    z = "s"
    z -= "t"
except TypeError as e:
    print("TypeError", e)
f = 1.5
f += 1
i = 3
i /= 3
print(f, i, type(i).__name__)
b = True
b += True
print(b, type(b).__name__)
