def f(a, *, b, c=3):
    return a, b, c
print(f(1, b=2))
print(f(1, b=2, c=4))
print(f(a=0, c=1, b=2))
for call in [lambda: f(1), lambda: f(1, 2), lambda: f(1, 2, b=3), lambda: f(b=1)]:
    try:
        call()
    except TypeError as e:
        print("TypeError:", e)
def g(*args, key=None):
    return args, key
print(g(1, 2, key="k"), g())
def p(a, b, /, c, d=4):
    return a, b, c, d
print(p(1, 2, 3), p(1, 2, c=3), p(1, 2, 3, d=5))
for call in [lambda: p(1, b=2, c=3), lambda: p(a=1, b=2, c=3), lambda: p(1)]:
    try:
        call()
    except TypeError as e:
        print("TypeError:", e)
def q(a, /, *, b):
    return a, b
print(q(1, b=2))
try:
    q(1, 2)
except TypeError as e:
    print("TypeError:", e)
def kw_only_missing(*, x, y, z):
    return x
try:
    kw_only_missing()
except TypeError as e:
    print("TypeError:", e)
try:
    kw_only_missing(x=1)
except TypeError as e:
    print("TypeError:", e)
def many(a, b, c):
    return 0
try:
    many()
except TypeError as e:
    print("TypeError:", e)
try:
    many(1)
except TypeError as e:
    print("TypeError:", e)
def defaults_and_pos(a, b=1):
    return 0
try:
    defaults_and_pos(1, 2, 3)
except TypeError as e:
    print("TypeError:", e)
try:
    defaults_and_pos()
except TypeError as e:
    print("TypeError:", e)
def kwpos(a, *, b):
    return 0
try:
    kwpos(1, 2, 3)
except TypeError as e:
    print("TypeError:", e)
def kwpos2(a, *, b=1):
    return 0
try:
    kwpos2(1, 2)
except TypeError as e:
    print("TypeError:", e)
# positional-only name may also appear in **kwargs
def po_kw(a, /, **kw):
    return a, kw
print(po_kw(1, a=2))
# lambda with keyword-only
lk = lambda x, *, y=2: x * y
print(lk(3), lk(3, y=3))
try:
    lk(1, 2)
except TypeError as e:
    print("TypeError:", e)
