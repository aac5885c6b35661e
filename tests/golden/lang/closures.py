def make_counter():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    return inc
c1 = make_counter()
c2 = make_counter()
print(c1(), c1(), c1(), c2())
# late binding in closures
fs = [lambda: i for i in range(3)]
print([f() for f in fs])
fs = [lambda i=i: i for i in range(3)]
print([f() for f in fs])
def outer():
    funcs = []
    for i in range(3):
        def f():
            return i * 10
        funcs.append(f)
    return funcs
print([f() for f in outer()])
# closure sees later assignment in the enclosing scope
def enclosing():
    def get():
        return value
    value = "assigned after def"
    return get
print(enclosing()())
# closures over parameters
def adder(n):
    return lambda x: x + n
add5 = adder(5)
print(add5(10), adder(-1)(1))
# three levels
def a():
    x = 1
    def b():
        y = 2
        def c():
            return x + y
        return c
    return b
print(a()()())
# shared cell between two closures
def pair():
    v = [0]
    s = 0
    def get():
        return s
    def put(n):
        nonlocal s
        s = n
    return get, put
g, p = pair()
print(g())
p(42)
print(g())
# closure captures the variable, not the value
def capture():
    x = 1
    f = lambda: x
    x = 2
    return f()
print(capture())
# __closure__-free check of qualified names
def outer2():
    def inner():
        pass
    return inner
print(outer2().__name__, outer2().__qualname__)
# closure in a class method
class K:
    def method(self):
        factor = 3
        return [(lambda v: v * factor)(i) for i in range(3)]
print(K().method())
# free variable referenced in a comprehension inside a function
def comp(n):
    return [i * n for i in range(4)]
print(comp(2))
# counter generator with a closure over a list
def acc():
    total = []
    def add(v):
        total.append(v)
        return sum(total)
    return add
ad = acc()
print(ad(1), ad(2), ad(3))
