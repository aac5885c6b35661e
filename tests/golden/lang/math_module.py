import math
print(math.floor(2.5), math.floor(-2.5), math.ceil(2.1), math.ceil(-2.1), math.trunc(2.9), math.trunc(-2.9))
print(type(math.floor(2.5)).__name__, type(math.sqrt(4)).__name__, math.floor(7), math.ceil(7))
print(math.sqrt(16), math.sqrt(2), math.exp(0), math.exp(2), math.log(1), math.log(100, 10), math.log(2))
print(math.log2(8), math.log10(0.001), math.log1p(1e-10) if hasattr(math, "log1p") else "", math.pow(2, 10), math.pow(2, -1))
print(math.sin(math.pi / 2), math.cos(math.pi), math.tan(math.pi / 4), math.asin(1), math.acos(1), math.atan(1))
print(math.sinh(1), math.cosh(1), math.tanh(1), math.atan2(-1, -1), math.hypot(5, 12))
print(math.degrees(1), math.radians(90), math.fabs(-2), math.copysign(3, -0.0), 7 % -3)
print(math.isclose(1.0, 1.0 + 1e-10), math.isclose(1.0, 1.1), math.isclose(0.0, 1e-12, abs_tol=1e-9))
print(math.isfinite(math.inf), math.isinf(-math.inf), math.isnan(math.nan), math.nan == math.nan)
print(math.gcd(48, 36), math.gcd(0, 5), math.factorial(0), math.factorial(12), math.comb(10, 3), math.perm(5, 2) if hasattr(math, "perm") else 20)
print(math.prod([2, 3, 4]), math.prod([]), math.prod([1.5, 2]), math.fsum([0.1, 0.2, 0.3]), sum([0.1, 0.2, 0.3]))
print(math.erf(1), math.erfc(1), math.gamma(5), math.expm1(1e-5))
print(math.e ** 2, math.pi * 2 == math.tau, round(math.pi, 4), int(math.e * 1000))
for bad in [lambda: math.sqrt(-1), lambda: math.log(-1), lambda: math.factorial(-1), lambda: math.acos(2),
            lambda: math.sqrt("x"), lambda: math.floor(None), lambda: math.factorial(1.5)]:
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)

# Arguments that are not numbers convert through __float__, else __index__ (PyFloat_AsDouble).
class Quarter:
    def __float__(self):
        return 2.25
class Sixteen:
    def __index__(self):
        return 16
print(math.sqrt(Quarter()), math.sqrt(Sixteen()), math.log2(Sixteen()), math.floor(Quarter()))
try:
    math.sqrt(object())
except TypeError as e:
    print(e)
