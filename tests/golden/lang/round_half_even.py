for v in [0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 0.49999999999999994, 2.675, 1.005, 0.125, 0.375]:
    print(v, round(v), round(v, 0), round(v, 1), round(v, 2), type(round(v)).__name__)
print(round(2.675, 2), round(1.0049999, 3), round(123.456, -1), round(123.456, -2), round(-123.456, -1))
print(round(5), round(15, -1), round(25, -1), round(35, -1), round(-25, -1), round(1234, -2), round(1250, -2), round(1350, -2))
print(round(0.0), round(-0.0), round(-0.4), round(1e16 + 1), round(7, 0), round(7, 2), type(round(7, 2)).__name__)
print(round(1 / 3, 5), round(2 / 3, 10), round(1e-10, 5), round(123456789.987654321, 4))
print(round(0.5 + 1e-16), round(4.5), round(5.5), round(-3.5), round(1e300, 2))
print(round(float("inf"), 2), round(float("nan"), 1))
for bad in [float("inf"), float("nan")]:
    try:
        round(bad)
    except (OverflowError, ValueError) as e:
        print(type(e).__name__, e)
try:
    round("x")
except TypeError as e:
    print("TypeError:", e)
try:
    round(1.5, 1.5)
except TypeError as e:
    print("TypeError:", e)
