import math
print("hello", 1, 2.5, None, True, [1, 2.0, "a"], (1,), {"a": 1})
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print([fib(i) for i in range(10)])
class A:
    def __init__(self, x):
        self.x = x
    def __repr__(self):
        return f"A(x={self.x!r})"
class B(A):
    def __init__(self, x, y):
        super().__init__(x)
        self.y = y
b = B(1, "z")
print(b, b.y, isinstance(b, A))
print(7 // -2, 7 % -2, -7 // 2, round(2.5), round(3.5), round(2.675, 2), 1/3, 1e16, 2**10)
print(f"{3.14159:.2f} {42:>5d} {'x':^5}|", "%05.1f %s" % (3.14159, "s"), "{} {}".format(1, "b"))
s = 0
for i in range(100):
    if i % 2: continue
    s += i
print(s, sorted([3, 1, 2], reverse=True), sorted(["b", "a"], key=lambda v: v), math.sqrt(2))
try:
    1 / 0
except ZeroDivisionError as e:
    print("caught", e)
finally:
    print("finally")
d = {k: v for k, v in zip("abc", range(3))}
print(d, list(d.items()), d.keys())
a, *rest = [1, 2, 3]
print(a, rest)
