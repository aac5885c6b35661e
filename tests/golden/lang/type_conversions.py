print(int("42"), int(" -7 "), int("+3"), int("0"), int("00012"), int("1_000_000"), int(3.7), int(-3.7), int(True))
print(int("101", 2), int("777", 8), int("ff", 16), int("FF", 16), int("z", 36), int("0x10", 0), int("0o10", 0), int("10", 0))
print(float("3.14"), float("-0.5"), float("1e-3"), float("  2  "), float(7), float(True), float("1_0.5"), float("-nan"))
print(str(42), str(-1.5), str(True), str(None), str([1]), str((1,)), str({"a": [1.5]}), str(str))
print(bool(0), bool(1), bool(-1), bool(0.0), bool(0.1), bool(""), bool(" "), bool([]), bool([0]), bool({}), bool(None))
print(list("ab"), list((1, 2)), list({"x": 1, "y": 2}), list(range(3)), list({"k": "v"}.items()), list(map(int, "123")))
print(tuple([1, 2]), tuple("xy"), tuple(range(2)), tuple({"a": 1}), tuple(x * 2 for x in (1, 2)))
print(dict([("a", 1), ("b", 2)]), dict(a=1), dict(zip("ab", (1, 2))), dict({"x": 1}, y=2), dict([]))
print(int(float("1e3")), float(int("12")), str(float("1e16")), int(str(12) + "3"), repr(str(0.1)))
print(round(float("2.5")), int(round(3.7)), round(7 / 2), int("-0"), float("-0"))
print(type(int("5")).__name__, type(float("5")).__name__, type(str(5)).__name__, type(bool(5)).__name__)
print(1 + True, 1.5 + True, "a" * True, [1] * False, True * 2.5)
print(hex(int("255")), bin(int("5")), oct(int("8")), int(hex(255), 16), int(bin(5), 2), int(oct(8), 8))
print(chr(int("65")), ord(str(5)), str(ord("A")), int(chr(50)))
for bad in ["", " ", "1.0", "0x", "1e3", "abc", "1 2", "--1", "1_", "_1", "0b2"]:
    try:
        int(bad, 0) if bad.startswith("0") else int(bad)
    except ValueError as e:
        print("ValueError:", e)
for bad in ["", "abc", "1.2.3", "1e", "inf1", "1__0"]:
    try:
        float(bad)
    except ValueError as e:
        print("ValueError:", e)
