pairs = [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 3), (1, 5), (-1, 5), (6, 3), (-6, 3)]
for a, b in pairs:
    print(a, b, a // b, a % b, divmod(a, b), a / b)
fpairs = [(7.5, 2), (-7.5, 2), (7.5, -2), (5, 0.5), (-0.0, 1), (1, -0.3), (0.3, 0.1), (-5.0, 3)]
for a, b in fpairs:
    print(a, b, a // b, a % b, divmod(a, b))
print(2 ** 10, 2 ** -1, (-2) ** 3, -2 ** 2, 2 ** 0.5, 4 ** 0.5, 0 ** 0, 10 ** 18)
print(pow(2, 10), pow(2, 10, 1000), pow(-3, 3), pow(2.0, 3), pow(3, 4, 5))
print(7 / 7, 1 / 3, 10 / 4, -9 / 2, 2 / -4, 1e308 * 10, -1e308 * 10)
print(abs(-5), abs(5.5), abs(-0.0), abs(True))
print(int(7.9), int(-7.9), int("  42  "), int("-0"), int("1_000"), int("ff", 16), int("0b101", 0), int("0x1F", 16), int(True))
print(5 % 3.0, -5 % 3.0, 5.0 // 3, 2.5 % 1, 1e300 % 7)
print(True + True, True * 3, False - 1, 3 // True, True / 2)
for a, b in [(1, 0), (1.0, 0), (1, 0.0), (0, 0)]:
    for op in ["/", "//", "%", "divmod"]:
        try:
            if op == "/":
                a / b
            elif op == "//":
                a // b
            elif op == "%":
                a % b
            else:
                divmod(a, b)
        except ZeroDivisionError as e:
            print(op, type(a).__name__, type(b).__name__, "ZeroDivisionError:", e)
try:
    0 ** -1
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
try:
    0.0 ** -1
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
try:
    pow(2, 3, 0)
except ValueError as e:
    print("ValueError:", e)
print(9007199254740993 // 1, 2 ** 62 // 3, -(2 ** 62) % 7, 9223372036854775807 // 2)
print(10 // 3 * 3 + 10 % 3, -10 // 3 * 3 + -10 % 3)
x = 17
x //= 5
print(x)
x %= 2
print(x)
y = 7.0
y //= 2
print(y)
print((-3) ** 0.5 if False else "skip complex", 8 ** (1 / 3))
