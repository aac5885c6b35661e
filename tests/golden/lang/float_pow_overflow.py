# A float power whose result overflows raises OverflowError with errno's arguments, as
# CPython's float_pow does; infinities given as operands and underflow do not raise.
import math

for base, exp in ((10.0, 400), (10, 400.0), (-10.0, 401), (2.0, 1024), (1e308, 1.5)):
    try:
        print(base ** exp)
    except OverflowError as e:
        print("OverflowError:", e, e.args)
print(10.0 ** -400, float("inf") ** 2, 2.0 ** 1023)
try:
    pow(10.0, 400)
except OverflowError as e:
    print("pow:", e)
x = 10.0
try:
    x **= 400
except OverflowError as e:
    print("**=:", e, x)
try:
    math.pow(10.0, 400)
except OverflowError as e:
    print("math.pow:", e)
for f in (round, math.floor, math.ceil, math.trunc, int):
    for v in (2.5, -2.5, 9.2e18, -9.2e18, float("inf"), float("nan")):
        try:
            print(f.__name__, v, f(v))
        except (OverflowError, ValueError) as e:
            print(f.__name__, v, type(e).__name__, e)
