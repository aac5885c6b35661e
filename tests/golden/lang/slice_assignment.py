a = list(range(8))
a[2:4] = ["x", "y", "z"]
print(a)
a[:] = [1, 2, 3]
print(a)
a[1:1] = [9, 9]
print(a)
a[len(a):] = [100]
print(a)
a[::2] = ["e0", "e1", "e2"]
print(a)
a[1:3] = []
print(a)
b = list(range(10))
b[::-2] = list("abcde")
print(b)
del b[::3]
print(b)
del b[1:3]
print(b)
del b[:]
print(b)
c = [1, 2, 3]
c[0], c[-1] = c[-1], c[0]
print(c)
c[1:2] = "xy"
print(c)
c[5:] = (7, 8)
print(c)
try:
    c[::2] = [1]
except ValueError as e:
    print("ValueError:", e)
try:
    c[0:1] = 5
except TypeError as e:
    print("TypeError:", e)
try:
    c[10] = 1
except IndexError as e:
    print("IndexError:", e)
try:
    del c[10]
except IndexError as e:
    print("IndexError:", e)
try:
    (1, 2)[0] = 5
except TypeError as e:
    print("TypeError:", e)
try:
    "abc"[0] = "z"
except TypeError as e:
    print("TypeError:", e)
try:
    del (1, 2)[0]
except TypeError as e:
    print("TypeError:", e)
# item assignment on dict and nested containers
d = {"a": [1, 2]}
d["a"][0] = 10
d["b"] = {"c": 1}
d["b"]["c"] += 5
print(d)
m = [[0] * 3 for _ in range(2)]
m[1][2] = 7
print(m)
alias = [[0] * 2] * 2
alias[0][0] = 1
print(alias)
# slice assignment with self
s = [1, 2, 3]
s[1:] = s
print(s)
# augmented slice assignment
t = [1, 2, 3, 4]
t[1:3] += [9]
print(t)
t[:2] *= 2
print(t)
