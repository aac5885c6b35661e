# collections: namedtuple, defaultdict, Counter and deque (OrderedDict has its own tests).
from collections import Counter, OrderedDict, defaultdict, deque, namedtuple

Point = namedtuple("Point", "x y")
Color = namedtuple("Color", ["r", "g", "b"], defaults=[0])
p = Point(1, y=2)
print(p, p.x, p[1], list(p), len(p), p == Point(1, 2), Point._fields, p._asdict())
print(p._replace(x=5), Color(1, 2), Color._field_defaults, hash(p) == hash(Point(1, 2)))
x, y = p
print(x + y, Point.__name__)
for bad in (lambda: Point(1), lambda: Point(1, 2, 3), lambda: Point(1, z=2),
            lambda: namedtuple("Bad", "a a"), lambda: namedtuple("Bad", "_x"),
            lambda: namedtuple("Bad", "1x")):
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
d = defaultdict(list)
d["a"].append(1)
d["a"].append(2)
d["b"]
print(d, d["a"], "c" in d, len(d), sorted(d), d.get("zz"), dict(d.items()))
counts = defaultdict(int)
for w in "the cat and the hat and the bat".split():
    counts[w] += 1
print(counts, counts == {"the": 3, "cat": 1, "and": 2, "hat": 1, "bat": 1})
try:
    defaultdict(None)["k"]
except KeyError as e:
    print("KeyError:", e)
c = Counter("abracadabra")
print(c, c["a"], c["z"], c.most_common(2), c.total(), sorted(c.elements())[:4])
c.update("aaz")
c.subtract({"b": 2})
print(c, Counter(a=3, b=1) + Counter(a=1, c=2), Counter(a=3, b=1) - Counter(a=1, b=5))
print(Counter([1, 1, 2]) == Counter({1: 2, 2: 1}), Counter(), Counter({"x": 0}) == Counter())
q = deque([1, 2, 3], maxlen=4)
q.append(4)
q.append(5)
q.appendleft(0)
print(q, q.popleft(), q.pop(), q, len(q), q[0], 2 in q)
r = deque(range(5))
r.rotate(2)
print(r, deque(), list(reversed(list(r))))
r.rotate(-1)
print(r)
try:
    deque().pop()
except IndexError as e:
    print("IndexError:", e)
print(OrderedDict(a=1), isinstance(OrderedDict(), OrderedDict))
