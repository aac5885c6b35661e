# The math module against CPython.
import math

print(math.pi, math.e, math.tau, math.inf, -math.inf, math.nan != math.nan)
for name in ["sqrt", "exp", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan", "asin",
             "acos", "atan", "sinh", "cosh", "tanh", "erf", "erfc", "fabs", "degrees",
             "radians", "gamma", "lgamma"]:
    fn = getattr(math, name)
    print(name, fn(0.5), fn(1))
print(math.log(10), math.log(8, 2), math.log(100, 10), math.pow(2, 10), math.pow(2.5, 0.5))
print(math.atan2(1, -1), math.hypot(3, 4), math.hypot(1, 2, 2), math.copysign(3, -0.0))
print(math.floor(2.7), math.floor(-2.7), math.ceil(2.1), math.ceil(-2.1), math.trunc(-2.9), math.floor(5))
print(type(math.floor(2.5)).__name__, type(math.sqrt(4)).__name__)
print(math.isnan(math.nan), math.isinf(-math.inf), math.isfinite(1e308), math.isfinite(math.inf))
print(math.isclose(1.0, 1.0 + 1e-10), math.isclose(1.0, 1.1), math.isclose(1.0, 1.05, rel_tol=0.1),
      math.isclose(0.0, 1e-10, abs_tol=1e-9))
print(math.factorial(10), math.gcd(12, 18), math.gcd(0, 5), math.prod([1, 2, 3, 4]), math.prod([]),
      math.fsum([0.1] * 10), sum([0.1] * 10), math.comb(5, 2), math.comb(3, 5))
print(math.sqrt(2) * math.sqrt(2), math.exp(-1000), math.sin(math.pi), math.cos(math.pi / 3))
for bad in [lambda: math.sqrt(-1), lambda: math.log(0), lambda: math.log(-1), lambda: math.acos(2),
            lambda: math.factorial(-1), lambda: math.pow(0, -1), lambda: math.log1p(-1)]:
    try:
        bad()
    except ValueError as e:
        print(type(e).__name__, e)
for bad in [lambda: math.exp(1000), lambda: math.floor(math.inf)]:
    try:
        bad()
    except OverflowError as e:
        print(type(e).__name__, e)
for bad in [lambda: math.sqrt("x"), lambda: math.factorial(2.5)]:
    try:
        bad()
    except TypeError as e:
        print(type(e).__name__, e)
try:
    math.floor(math.nan)
except ValueError as e:
    print(type(e).__name__, e)
