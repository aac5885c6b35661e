# math.fsum: the correctly rounded sum (where a running float sum loses digits), and CPython's
# errors for overflow of finite values and for inf + -inf.
import math

inf = float("inf")
print(math.fsum([0.1] * 10), sum([0.1] * 10))
print(math.fsum([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]))
print(math.fsum([2.0**53, -0.5, -2.0**-54]), math.fsum([1.0, 1e-16, 1e-16]))
print(math.fsum([]), math.fsum([inf, 1.0]), math.fsum([-inf, 5.0, -inf]))
print(math.fsum([float("nan"), 1.0]), math.fsum(range(10)), math.fsum([1e308, -1e308, 1.0]))
for xs in ([1e308, 1e308], [1e308, 1e308, -1e308], [inf, -inf], [1.0, inf, 2.0, -inf]):
    try:
        print(math.fsum(xs))
    except (OverflowError, ValueError) as e:
        print(type(e).__name__ + ":", e)
