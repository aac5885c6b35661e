def count(n):
    try:
        for i in range(n):
            x = yield i
            if x is not None:
                print("sent", x)
        return "done"
    finally:
        print("finally of count")

g = count(3)
print(repr(g).startswith("<generator object count at 0x"))
print(next(g), g.send("a"), next(g))
try:
    next(g)
except StopIteration as e:
    print("stop", e.value, repr(e))

def inner():
    r = yield 1
    yield r
    return "inner-ret"

def outer():
    v = yield from inner()
    print("inner returned", v)
    yield from [10, 20]
    yield from range(2)

o = outer()
print(next(o), o.send(5), list(o))

def gen_raises():
    yield 1
    raise ValueError("boom")

try:
    for v in gen_raises():
        print("got", v)
except ValueError as e:
    print("caught", e)

def dropped():
    try:
        yield 1
        yield 2
    finally:
        print("closed on drop")

d = dropped()
next(d)
del d
print("after del")
c = count(5); next(c); c.close(); print("closed", list(c))
def si():
    yield 1
    raise StopIteration
try:
    list(si())
except RuntimeError as e:
    print("RuntimeError:", e, type(e.__cause__).__name__)
def ex_in_except():
    try:
        raise KeyError("k")
    except KeyError:
        yield "in except"
        raise
g = ex_in_except()
print(next(g))
try:
    next(g)
except KeyError as e:
    print("reraised", repr(e))
t = count(4); next(t)
try:
    t.throw(ValueError("thrown"))
except ValueError as e:
    print("throw propagated", e)

def nat():
    n = 0
    while True:
        yield n
        n += 1
print(list([v for _, v in zip(range(5), nat())]))
print(sum(x for x in nat() if x < 0) if False else "skip")
def rec(n):
    if n:
        yield n
        yield from rec(n - 0)
print(list(rec(50)))


def nested_genexp():
    squares = (i * i for i in range(4))
    return list(squares), sum(i for i in range(5))


print(nested_genexp())


def sender():
    total = 0
    while True:
        value = yield total
        if value is None:
            return total
        total += value


s = sender()
next(s)
for v in (1, 2, 3):
    print("running total", s.send(v))
try:
    s.send(None)
except StopIteration as e:
    print("final", e.value)
try:
    s.send(1)
except StopIteration as e:
    print("again", e.value)
try:
    sender().send(5)
except TypeError as e:
    print("TypeError:", e)


def running():
    yield next(me)


me = running()
try:
    next(me)
except ValueError as e:
    print("ValueError:", e)


def stubborn():
    while True:
        try:
            yield 1
        except GeneratorExit:
            pass


st = stubborn()
next(st)
try:
    st.close()
except RuntimeError as e:
    print("RuntimeError:", e)
print(type(count(1)).__name__, isinstance(GeneratorExit(), BaseException))
