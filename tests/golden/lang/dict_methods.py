d = {"a": 1, "b": 2}
d["c"] = 3
print(d, len(d), d["a"], d.get("z"), d.get("z", 0), "a" in d, "z" not in d, 1 in d)
print(d.keys(), d.values(), d.items())
print(list(d.keys()), list(d.values()), list(d.items()))
print(d.pop("b"), d, d.pop("zz", "default"), d.setdefault("a", 100), d.setdefault("n", []), d)
d.update({"x": 10}, y=20)
d.update([("z", 30)])
print(d)
print(d.popitem(), d)
e = d.copy()
e["a"] = "changed"
print(d["a"], e["a"])
print(dict.fromkeys(["a", "b"]), dict.fromkeys("xy", 0))
del d["n"]
print(d, sorted(d), list(reversed(d)) if False else "")
d.clear()
print(d, bool(d), bool({0: 0}))
# insertion order and overwriting
o = {}
o["z"] = 1
o["a"] = 2
o["z"] = 3
print(o, list(o))
# keys of mixed hashable types
m = {1: "int", 2.5: "float", "s": "str", (1, 2): "tuple", None: "none", True: "bool?"}
print(m, m[1], m[1.0], m[(1, 2)])
# views are live
v = {"k": 1}
ks = v.keys()
vs = v.values()
it = v.items()
v["j"] = 2
print(ks, vs, it, len(ks), "k" in ks, ("k", 1) in it, 2 in vs)
print(list(ks) == ["k", "j"], sorted(vs))
# dict equality ignores order
print({"a": 1, "b": 2} == {"b": 2, "a": 1}, {"a": 1} == {"a": 1, "b": 2}, {} == {})
# nested dict printing with floats
print({"loss": 0.1 + 0.2, "acc": [0.5, 1.0], "meta": {"lr": 1e-4, "name": "x"}})
# dict merge operators
print({"a": 1} | {"b": 2}, {"a": 1, "b": 1} | {"b": 2})
g = {"a": 1}
g |= {"c": 3}
print(g)
# errors
for bad in [lambda: {}["missing"], lambda: {}.pop("x"), lambda: {}.popitem(), lambda: {[]: 1},
            lambda: {"a": 1}[["a"]], lambda: dict.fromkeys(5), lambda: {1: 2} + {3: 4}, lambda: {(1, [2]): 3}]:
    try:
        bad()
    except (KeyError, TypeError) as e:
        print(type(e).__name__, e)
# iteration order and modification error
dd = {"a": 1, "b": 2}
try:
    for k in dd:
        dd["new"] = 1
except RuntimeError as e:
    print("RuntimeError:", e)
# dict from keyword and zip
print(dict(zip(["x", "y"], [1, 2])), dict(a=[1], b=(2,)), dict([["p", 1]]))
# self-referential dict
sr = {}
sr["me"] = sr
print(sr)
# dict with tuple keys and get on nested
grid = {(0, 0): "origin", (1, 0): "east"}
print(grid[(0, 0)], grid.get((2, 2), "nothing"), (1, 0) in grid)
counts = {}
for w in "the cat the dog the end".split():
    counts[w] = counts.get(w, 0) + 1
print(counts, max(counts, key=counts.get), sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
print(repr({}), str({"q": "'"}), {"a": None, "b": True})
print(list({1: 1, True: 2, 1.0: 3}.items()))
