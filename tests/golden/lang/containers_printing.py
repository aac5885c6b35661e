print([1.0, 2.5, -0.0, 1e20, 1e-8, float("nan"), float("inf")])
print((0.1, (0.2, [0.30000000000000004])), {"k": (1.5,)}, [[[]]], [(), {}])
print({1: [1.0, {"x": (2.0, None)}]}, [True, None, "s", 'q"', "q'"])
print([["nested", ["deep", ["deeper"]]]], (1, "a", 2.0), ("single",))
print(str([1, "a"]), repr((1, "a")), f"{[0.1]}", "%s" % [0.5], "{}".format({"a": 0.25}))
print(str({"a": [1, 2]}), repr({}), repr([]), repr(()), repr((1,)))
print(list(range(3)), [range(2)], (range(1, 4),), {"r": range(0)})
print([len, print] == [len, print], [None] * 3, [[0] * 2] * 2)
class R:
    def __repr__(self):
        return "R"
    def __str__(self):
        return "S"
print([R()], (R(),), {"k": R()}, R(), str(R()), f"{R()}", "%s %r" % (R(), R()))
print(["é", "\n", "\t", "\\"], ("😀",), {"ключ": "значение"})
print([1e16, 1.5e16, 12345678901234567.0, 0.000001, 0.0000001])
d = {"a": 1}
print(d.keys(), d.values(), d.items(), list(d.items())[0])
print(type(d.keys()).__name__, type(d.values()).__name__, type(d.items()).__name__)
print(iter([]).__class__.__name__ if False else "", [slice(1, 2), slice(None, 3, -1)])
print([1, [2, [3, [4, [5, [6]]]]]], ([],), ([1],))
big = list(range(30))
print(big)
print({i: i * 0.5 for i in range(5)})
