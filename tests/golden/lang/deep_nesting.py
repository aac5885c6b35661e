# Deeply nested containers: repr and == hit the recursion limit (no C++ stack overflow).
a = []
for i in range(100000):
    a = [a]
try:
    print(repr(a)[:10])
except RecursionError as e:
    print("RecursionError", e)
b = []
for i in range(100000):
    b = [b]
try:
    print(a == b)
except RecursionError as e:
    print("RecursionError", e)
t = ()
for i in range(100000):
    t = (t,)
try:
    print(hash(t) is not None)
except RecursionError as e:
    print("RecursionError", e)
d = {}
for i in range(100000):
    d = {"k": d}
try:
    print(str(d)[:5])
except RecursionError as e:
    print("RecursionError", e)
