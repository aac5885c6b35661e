vals = [0.1 + 0.2, 1e16, 1e15, 123456789012345678.0, 1e-5, 0.0001, 1e-4, 1.5e-5, -0.0, 0.0,
        float("nan"), float("inf"), -float("inf"), 1 / 3, 2 / 3, 100.0, 1e22, 1e21, 1e23,
        5e-324, 1.7976931348623157e308, 2.5, 3.14159, 1.0, -1.0, 0.1, 1.1, 2.0 ** 53, 2.0 ** 60,
        9.999999999999999e15, 12345.6789, 1e100, 0.3, 123e-20]
for v in vals:
    print(repr(v), str(v), v)
print(vals[:6])
print((0.1, -0.0), {"f": 0.5}, [[1.0, 2.5], [float("inf")]])
print(float("1.5"), float(" -2 "), float("1e3"), float("inf"), float("-Infinity"), float("nan"), float(3), float("1_000.5"))
print(float(True), float("  .5"), float("5."), float("-0"))
try:
    float("abc")
except ValueError as e:
    print("ValueError:", e)
try:
    float("")
except ValueError as e:
    print("ValueError:", e)
print(0.1 * 3, 0.1 * 3 == 0.3, 1.1 + 2.2, 3 * 1.1, 1 - 0.9, 1e16 + 1, 2 ** 0.5)
print(int(1e16), int(-1.5e10), int(2.0 ** 62))
print(1e16 == 10 ** 16, 0.5 == 1 / 2, hash(1.0) == hash(1), -0.0 == 0.0)
print(str(1.0e-4), str(1.0e-5), 1e-05, 15e-1)
import math
print(math.pi, math.e, math.inf, -math.inf, math.nan, math.tau)
print(math.sqrt(2), math.floor(-2.5), math.ceil(-2.5), math.floor(3), math.trunc(-2.7))
print(math.isnan(float("nan")), math.isinf(1e309), math.isfinite(1.0), math.isclose(0.1 + 0.2, 0.3))
print(math.exp(1), math.log(math.e), math.log(8, 2), math.log2(1024), math.log10(1000), math.pow(2, 0.5))
print(math.sin(0), math.cos(0), math.tan(0), math.atan2(1, 1), math.fabs(-3), math.hypot(3, 4))
print(math.gcd(12, 18), math.factorial(10), math.copysign(1, -0.0), math.degrees(math.pi), math.radians(180))
print(math.prod([1, 2, 3, 4]), math.fsum([0.1] * 10), sum([0.1] * 10), math.erf(0.5), math.tanh(0.5))
try:
    math.sqrt(-1)
except ValueError as e:
    print("ValueError:", e)
try:
    math.log(0)
except ValueError as e:
    print("ValueError:", e)
