def f(a, b=2, *args, **kwargs):
    return (a, b, args, kwargs)
print(f(1))
print(f(1, 3))
print(f(1, 3, 4, 5))
print(f(1, x=1, y=2))
print(f(a=1, b=5))
print(f(*[1, 2, 3]))
print(f(*(1,), **{"b": 7, "z": 8}))
print(f(1, *[2, 3], *[4], k=1, **{"j": 2}))
def g(**kw):
    return sorted(kw.items())
print(g(b=2, a=1))
d = {"x": 1, "y": 2}
print(g(**d, z=3))
# forwarding
def wrapper(*args, **kwargs):
    return f(*args, **kwargs)
print(wrapper(10, 20, 30, key="v"))
def fwd(fn, *a, **k):
    return fn(*a, **k)
print(fwd(max, 3, 9, 2), fwd(sorted, [3, 1, 2], reverse=True))
# kwargs dict is a fresh dict
def mutate(**kw):
    kw["added"] = True
    return kw
orig = {"a": 1}
print(mutate(**orig), orig)
# keyword order preserved
def order(**kw):
    return list(kw)
print(order(z=1, a=2, m=3))
# errors
def h(a, b):
    return a + b
for call in [lambda: h(1), lambda: h(1, 2, 3), lambda: h(1, c=3), lambda: h(1, a=2),
             lambda: h(**{"a": 1, "b": 2, "c": 3}), lambda: f(), lambda: g(1)]:
    try:
        call()
    except TypeError as e:
        print("TypeError:", e)
try:
    h(1, **{"b": 2}, **{"b": 3})
except TypeError as e:
    print("TypeError:", e)
try:
    h(*5)
except TypeError as e:
    print("TypeError:", e)
try:
    h(**[1])
except TypeError as e:
    print("TypeError:", e)
# defaults evaluated once at def time
counter = [0]
def default_time(x=len(counter)):
    return x
counter.append(1)
print(default_time())
def mutable_default(item, acc=[]):
    acc.append(item)
    return acc
print(mutable_default(1), mutable_default(2))
print(mutable_default(3, []))
def none_default(item, acc=None):
    if acc is None:
        acc = []
    acc.append(item)
    return acc
print(none_default(1), none_default(2))
# default referencing earlier global
base = 10
def uses_base(x=base * 2):
    return x
base = 100
print(uses_base())
# star args with tuple type
def types(*a, **k):
    return type(a).__name__, type(k).__name__
print(types())
# keyword argument named like a builtin
def kwb(list=None, dict=None):
    return list, dict
print(kwb(list=[1], dict={}))
