# More of the math module: hyperbolic inverses, cbrt/exp2, fmod/remainder, modf/frexp/ldexp,
# isqrt/lcm/perm/dist, and CPython's error rules (nan from a number is a domain error).
import math

for name, args in [("asinh", (0.5,)), ("acosh", (2,)), ("atanh", (0.5,)), ("cbrt", (27,)),
                   ("exp2", (3,)), ("fmod", (7, -3)), ("fmod", (-7.5, 2)), ("remainder", (7, 3)),
                   ("remainder", (5, 2)), ("modf", (2.5,)), ("modf", (-3.25,)), ("frexp", (8.0,)),
                   ("frexp", (0.0,)), ("ldexp", (0.5, 4)), ("isqrt", (17,)), ("isqrt", (10 ** 12,)),
                   ("lcm", (4, 6)), ("lcm", ()), ("perm", (5, 2)), ("perm", (5,)),
                   ("dist", ((0, 0), (3, 4))), ("dist", ((1, 2, 3), (4, 6, 8))),
                   ("degrees", (math.pi / 3,)), ("radians", (30,)), ("hypot", (1e200, 1e200)),
                   ("pow", (2, 0.5)), ("sqrt", (math.inf,)), ("atan", (math.inf,))]:
    print(name, args, getattr(math, name)(*args))
for name, args in [("acosh", (0.5,)), ("atanh", (1,)), ("fmod", (1, 0)), ("fmod", (math.inf, 1)),
                   ("remainder", (1, 0)), ("sin", (math.inf,)), ("cos", (-math.inf,)),
                   ("isqrt", (-1,)), ("perm", (-1, 1)), ("log2", (0,)), ("log10", (-1,))]:
    try:
        getattr(math, name)(*args)
    except ValueError as e:
        print(name, type(e).__name__, e)
for name, args in [("ldexp", (1.0, 2000)), ("pow", (10.0, 400)), ("sinh", (1000,)), ("exp2", (5000,))]:
    try:
        getattr(math, name)(*args)
    except OverflowError as e:
        print(name, type(e).__name__, e)
try:
    math.isqrt(2.0)
except TypeError as e:
    print(type(e).__name__, e)
print(math.gamma(0.5), math.gamma(5), math.gamma(-1.5), math.gamma(171.5), math.lgamma(0.5),
      math.lgamma(100), math.lgamma(-2.5), math.gamma(1e-30))
for bad in [lambda: math.gamma(0), lambda: math.gamma(-2), lambda: math.lgamma(0)]:
    try:
        bad()
    except ValueError as e:
        print(type(e).__name__, e)
try:
    math.gamma(200)
except OverflowError as e:
    print(type(e).__name__, e)
