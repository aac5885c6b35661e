x = "global"
def show():
    return x
def shadow():
    x = "local"
    return x, show()
print(shadow(), x)
for i in range(3):
    last = i * 10
print(i, last)
if True:
    block_var = "visible after if"
print(block_var)
try:
    tried = "assigned in try"
except Exception:
    pass
print(tried)
CM = type("CM", (), {"__enter__": lambda s: "entered", "__exit__": lambda s, *a: None})
with CM() as w:
    pass
print(w)
def counter():
    counts = {}
    def add(k):
        counts[k] = counts.get(k, 0) + 1
    for c in "abca":
        add(c)
    return counts
print(counter())
def outer():
    v = 1
    def read():
        return v
    v = 2
    r1 = read()
    v = 3
    return r1, read()
print(outer())
y = 10
def uses_then_assigns():
    try:
        print(y)
    except UnboundLocalError as e:
        print("UnboundLocalError:", e)
    y = 5
    return y
print(uses_then_assigns())
z = [1, 2]
def mutate():
    z.append(3)
    return z
print(mutate(), z)
def comp_scope():
    k = "outer k"
    vals = [k for k in range(2)]
    return k, vals
print(comp_scope())
class Cls:
    a = 1
    b = [a] * 2
    c = (lambda: "lambda in class")()
    def method(self):
        return "a" in dir() or "not visible"
print(Cls.b, Cls.c, Cls().method())
def make_adders():
    adders = []
    for n in range(3):
        adders.append(lambda v, n=n: v + n)
    return [f(10) for f in adders]
print(make_adders())
def nested_global():
    def inner():
        global new_global
        new_global = "created"
    inner()
nested_global()
print(new_global)
