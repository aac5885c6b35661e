print("%d %s %r" % (1, "two", "three"))
print("%5d|%-5d|%05d|%+d|% d" % (42, 42, 42, 42, 42))
print("%.2f %10.3f %-10.1f| %e %.3E %g %G" % (3.14159, 2.71828, 1.5, 12345.678, 0.00012, 1e-10, 1e20))
print("%x %X %o %#x %#o %c %c" % (255, 255, 8, 255, 8, 65, "z"))
print("%s" % "single", "%s" % (1,), "%s" % [1, 2], "%s" % ((1, 2),))
print("%(name)s is %(age)d years" % {"name": "Ann", "age": 30})
print("%(a)s %(a)r %(b).2f" % {"a": "x", "b": 2})
print("100%% sure %s" % "yes")
print("%*d|%-*d|%.*f" % (5, 1, 4, 2, 2, 3.14159))
print("%s %s" % (None, True), "%d" % True, "%i" % 3.9, "%d" % -3.9)
print("%r %a" % ("é", "é"))
print("%.3s|%5s|%-5s|" % ("abcdef", "ab", "ab"))
print("%f %F" % (float("inf"), float("nan")))
print("% 5.1f|%+.0f|%#.0f" % (2.25, 2.5, 3.0))
print("%s" % {"k": 1})
print("%(x)s" % {"x": [1, {"y": 2.5}]})
for bad in [lambda: "%d" % "s", lambda: "%s %s" % (1,), lambda: "%s" % (1, 2),
            lambda: "%(k)s" % {"j": 1}, lambda: "%z" % 1, lambda: "%(k)s" % (1,), lambda: "%c" % "ab"]:
    try:
        bad()
    except (TypeError, ValueError, KeyError) as e:
        print(type(e).__name__, e)
