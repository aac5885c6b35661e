sq = lambda x: x * x
print(sq(4), sq(2.5))
print((lambda: "no args")())
print((lambda a, b=2: a + b)(1), (lambda *a: a)(1, 2), (lambda **k: k)(x=1))
print(list(map(lambda x: x + 1, [1, 2, 3])))
print(sorted(["bb", "a", "ccc"], key=lambda s: len(s)))
print(sorted([(1, "b"), (1, "a"), (0, "z")], key=lambda t: (t[0], t[1])))
compose = lambda f, g: lambda x: f(g(x))
inc = lambda x: x + 1
dbl = lambda x: x * 2
print(compose(inc, dbl)(5), compose(dbl, inc)(5))
print(sq.__name__, sq.__qualname__)
cond = lambda x: "pos" if x > 0 else ("zero" if x == 0 else "neg")
print(cond(3), cond(0), cond(-2))
print((lambda x: (yield_ := x) + 1)(1))
nested = lambda x: (lambda y: x + y)
print(nested(1)(2))
print(list(filter(lambda v: v % 2, range(10))))
table = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b}
print(table["add"](2, 3), table["mul"](2, 3))
def make_multipliers():
    return [lambda x, i=i: x * i for i in range(4)]
print([m(2) for m in make_multipliers()])
try:
    sq()
except TypeError as e:
    print("TypeError:", e)
try:
    sq(1, 2)
except TypeError as e:
    print("TypeError:", e)
