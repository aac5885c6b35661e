# abc: a class with abstract methods left cannot be instantiated (CPython 3.11's TypeError);
# once every one is implemented it can, nn.Module-style mixins included.
from abc import ABC, abstractmethod


class Shape(ABC):
    def __init__(self, name):
        self.name = name

    @abstractmethod
    def area(self):
        ...

    @abstractmethod
    def perimeter(self):
        ...

    def describe(self):
        return f"{self.name}: area {self.area()}, perimeter {self.perimeter()}"


class HalfDone(Shape):
    def area(self):
        return 0


class Square(HalfDone):
    def __init__(self, side):
        super().__init__("square")
        self.side = side

    def area(self):
        return self.side ** 2

    def perimeter(self):
        return 4 * self.side


for cls in (Shape, HalfDone):
    try:
        cls("x")
    except TypeError as e:
        print("TypeError:", e)
s = Square(3)
print(s.describe(), isinstance(s, Shape), isinstance(s, ABC))
print(sorted(Shape.__abstractmethods__), sorted(HalfDone.__abstractmethods__),
      len(Square.__abstractmethods__), Shape.area.__isabstractmethod__)


class Plain(ABC):
    pass


print(type(Plain()).__name__)
