inf = float("inf")
nan = float("nan")
print(inf, -inf, nan, inf + 1, inf - inf, inf * 0, -inf * -1, 1 / inf, -1 / inf)
print(inf > 1e308, -inf < -1e308, inf == inf, nan == nan, nan != nan, nan < 1, nan > 1, nan is nan)
print(max(1, nan), max(nan, 1), min(inf, 5), sorted([3, inf, -inf, 0]), abs(-inf))
print(inf % 2 if False else "skip", 5 % inf, -5 % inf, 5 // inf, -5 // inf)
print(int(1e300 * 0 + 3), float("-0.0"), -0.0 == 0.0, str(-0.0), repr(0.0 * -1))
print(round(inf, 2), round(-inf, 0), round(nan, 3), inf ** 0, nan ** 0, 1 ** nan, 0 ** 0.0)
print(float("INF"), float("-iNfInItY"), float("NaN"), [inf, nan], {"v": -inf})
print(f"{inf} {nan:.2f} {-inf:>6} {inf:e} {nan:%}", "%f %e %g" % (inf, -inf, nan))
print(1e308 * 10 == inf, -1e308 * 10 == -inf, 2.0 ** 1024 if False else "overflow skip")
try:
    int(inf)
except OverflowError as e:
    print("OverflowError:", e)
try:
    int(nan)
except ValueError as e:
    print("ValueError:", e)
try:
    inf % 2
    print("no error", inf % 2)
except ValueError as e:
    print("ValueError:", e)
