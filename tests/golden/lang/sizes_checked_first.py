# Results too large to build are a MemoryError before any memory is used, as in CPython
# (list of a huge range, a replace that would grow past memory); str.replace with an empty
# pattern inserts between characters, not bytes.
for label, f in [("list range", lambda: list(range(10**12))),
                 ("replace", lambda: ("a" * 10**6).replace("", "b" * 10**6))]:
    try:
        f()
    except MemoryError as e:
        print(label, "MemoryError", repr(e))
print("é".replace("", "-"), "héllo".replace("", "|", 3), "abcabc".replace("b", "XY"), "aaa".replace("a", "", 2))
print(len(list(range(10**6))), "x".replace("x", "yy"), "".replace("", "z"), "ab".replace("", ""))
for label, f in [("percent", lambda: "%0*d" % (10**12, 1)), ("fstring", lambda: f"{1:>{10**12}}"),
                 ("format", lambda: "{:>1000000000000}".format(1)), ("huge", lambda: "{:>99999999999999999999}".format(1))]:
    try:
        f()
    except (MemoryError, ValueError, OverflowError) as e:
        print(label, type(e).__name__, e)
