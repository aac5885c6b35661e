class Countdown:
    def __init__(self, start):
        self.start = start
    def __iter__(self):
        n = self.start
        items = []
        while n > 0:
            items.append(n)
            n -= 1
        return iter(items)
class Fib:
    def __init__(self, limit):
        self.a, self.b, self.limit = 0, 1, limit
    def __iter__(self):
        return self
    def __next__(self):
        if self.a > self.limit:
            raise StopIteration
        value = self.a
        self.a, self.b = self.b, self.a + self.b
        return value
print(list(Countdown(3)), list(Countdown(3)), sum(Countdown(4)))
f = Fib(20)
print(list(f), list(f))
print([x for x in Fib(10) if x % 2 == 0], max(Fib(50)), sorted(Fib(5), reverse=True))
print(dict(enumerate(Fib(3))), list(zip(Fib(8), "abcdefgh")), 8 in Fib(10), 9 in Fib(10))
a, b, *rest = Fib(10)
print(a, b, rest)
it = iter([1, 2, 3])
print(next(it), list(it), next(it, "end"))
it = iter("ab")
for ch in it:
    print("ch", ch)
print(list(it))
d = {"x": 1, "y": 2}
ki = iter(d)
print(next(ki), next(ki), next(ki, None))
print(list(iter(range(3))), list(reversed(range(3))), list(iter((1, 2))))
class NotIterable:
    pass
try:
    iter(NotIterable())
except TypeError as e:
    print("TypeError:", e)
class BadIter:
    def __iter__(self):
        return 5
try:
    iter(BadIter())
except TypeError as e:
    print("TypeError:", e)
try:
    for _ in 5:
        pass
except TypeError as e:
    print("TypeError:", e)
try:
    a, b = 1
except TypeError as e:
    print("TypeError:", e)
class Stopper:
    def __init__(self):
        self.n = 0
    def __iter__(self):
        return self
    def __next__(self):
        self.n += 1
        if self.n > 2:
            raise StopIteration("done")
        return self.n
s = Stopper()
print([v for v in s], next(s, "exhausted"))
try:
    next(Stopper().__iter__().__iter__()) and next(iter([]))
except StopIteration as e:
    print("StopIteration", repr(e))
