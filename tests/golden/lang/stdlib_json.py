# json: dumps/loads with CPython's spacing, escaping, options and decode errors.
import json

config = {"n_layer": 12, "dropout": 0.1, "bias": True, "name": None, "dims": [768, 3072],
          "nested": {"a": [1, 2.5, "x"], "empty": {}, "none": []}}
print(json.dumps(config))
print(json.dumps(config, indent=2, sort_keys=True))
print(json.dumps([1, (2, 3)], separators=(",", ":")), json.dumps("caf\u00e9 \U0001f600 \"q\" \\ \n\t"))
print(json.dumps("caf\u00e9", ensure_ascii=False), json.dumps({1: "a", 2.5: "b", True: "c", None: 0}))
print(json.dumps([float("inf"), float("nan"), -0.0, 1e20, 1.5e-7]), json.dumps(10**18), json.dumps(""))
print(json.dumps({"a": 1}, indent="\t"), json.dumps([], indent=4), json.dumps([[]], indent=1))
print(json.dumps(object, default=lambda o: o.__name__), json.dumps({"k": 1}, indent=0))
for bad in ({(1, 2): 3}, object()):
    try:
        json.dumps(bad)
    except TypeError as e:
        print("TypeError:", e)
loop = []
loop.append(loop)
try:
    json.dumps(loop)
except ValueError as e:
    print("ValueError:", e)
try:
    json.dumps(float("nan"), allow_nan=False)
except ValueError as e:
    print("ValueError:", e)
text = json.dumps(config)
print(json.loads(text) == config, json.loads(" [1, 2.0, -3e2, true, null, \"\\u00e9\\n\"] "))
print(json.loads('{"a": {"b": [NaN, Infinity, -Infinity]}}'), json.loads('"\\ud83d\\ude00"') == "\U0001f600")
print(json.loads("0"), json.loads("-0.5"), json.loads('{"x": 1}', object_hook=lambda d: sorted(d)))
for doc in ("", "[1,", "{'a': 1}", '{"a" 1}', "[1 2]", "[1] x", '"abc', '"\\q"', "nul", "01",
            '"a\tb"', '{"a":1,}', "[-]"):
    try:
        json.loads(doc)
    except json.JSONDecodeError as e:
        print(repr(doc), "->", e, "|", e.msg, e.pos, e.lineno, e.colno, isinstance(e, ValueError))
print(json.loads("[\n  1,\n  2\n]"), json.dumps(json.loads('{"k": [1, {"z": []}]}')))
