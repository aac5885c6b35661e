# A tour of the workload language: everything here is Kiln's own interpreter, no CPython.
from math import sqrt


def stats(values, *, precision=3):
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return round(mean, precision), round(sqrt(var), precision)


def make_counter(start=0):
    count = start

    def step(by=1):
        nonlocal count
        count += by
        return count

    return step


class Shape:
    sides = 0

    def __init__(self, name):
        self.name = name

    def area(self):
        raise NotImplementedError(f"{type(self).__name__}.area")

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, area={self.area():.2f})"


class Square(Shape):
    sides = 4

    def __init__(self, side):
        super().__init__("square")
        self.side = side

    def area(self):
        return self.side ** 2


class Circle(Shape):
    def __init__(self, r):
        super().__init__("circle")
        self.r = r

    def area(self):
        return 3.141592653589793 * self.r ** 2


print(stats([2, 4, 4, 4, 5, 5, 7, 9]))
counter = make_counter(10)
print([counter() for _ in range(3)], counter(by=5))
shapes = sorted([Square(2), Circle(1), Square(1.5)], key=lambda s: s.area())
print(shapes)
print({s.name: s.sides for s in shapes})
print("%-8s|%6.2f|%03d" % ("total", sum(s.area() for s in shapes), len(shapes)))
try:
    Shape("blob").area()
except NotImplementedError as e:
    print("not implemented:", e)
print(7 // -2, -7 % 3, round(2.5), round(0.125, 2), 10 / 4, 2 ** 62)
print(" ".join(f"{w[::-1]:>6}" for w in "kiln runs python".split()))
