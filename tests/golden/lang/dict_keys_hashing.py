d = {}
d[1] = "int"
d[1.0] = "float"
d[True] = "bool"
print(d, len(d))
d2 = {0: "zero", False: "false", 0.0: "zero float"}
print(d2)
print({(1, 2): "a", (1, 2.0): "b"}, {"a": 1, "a": 2})
print(hash(1) == hash(1.0) == hash(True), hash((1, "a")) == hash((1.0, "a")), hash("x") == hash("x"))
keys = [None, True, 3, -4, 2.5, "s", (1, (2, 3)), ()]
m = {k: i for i, k in enumerate(keys)}
print(m, all(m[k] == i for i, k in enumerate(keys)))
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __eq__(self, other):
        return isinstance(other, Point) and (self.x, self.y) == (other.x, other.y)
    def __hash__(self):
        return hash((self.x, self.y))
    def __repr__(self):
        return f"P({self.x},{self.y})"
pts = {Point(1, 2): "a"}
pts[Point(1, 2)] = "b"
pts[Point(2, 1)] = "c"
print(pts, Point(1, 2) in pts, Point(3, 3) in pts)
class Plain:
    pass
p1, p2 = Plain(), Plain()
dd = {p1: 1, p2: 2}
print(len(dd), dd[p1], dd[p2])
for bad in [[1], {"a": 1}, ([1], 2), {1: 2}.keys() if False else [2]]:
    try:
        {bad: 1}
    except TypeError as e:
        print("TypeError:", e)
counts = {}
for word in "to be or not to be".split():
    counts[word] = counts.get(word, 0) + 1
print(counts, sorted(counts, key=counts.get, reverse=True)[:2])
nested = {"a": {"b": {"c": 1}}}
nested["a"]["b"]["d"] = 2
print(nested, nested["a"]["b"].get("c"), "b" in nested["a"])
d3 = dict.fromkeys(range(3), [])
d3[0].append("shared")
print(d3)
print({1: "a"} == {1.0: "a"}, {1: "a"} == {True: "a"}, {"a": [1]} == {"a": [1]})
