# Arity and keyword errors of builtin functions and methods, worded as CPython's builtins word them.
cases = [
    lambda: str.upper(), lambda: list.append(), lambda: str.upper("ab"), lambda: list.append([], 1, 2),
    lambda: dict.get({}, 1, 2, 3), lambda: [].append(), lambda: [].clear(1), lambda: "x".upper(1),
    lambda: [].pop(1, 2), lambda: [].index(), lambda: {}.get(), lambda: "x".join(), lambda: divmod(1),
    lambda: isinstance(1), lambda: len(x=1), lambda: abs(x=1), lambda: list(x=1), lambda: sorted(),
    lambda: sorted([], [], []), lambda: sorted([], foo=1), lambda: enumerate([], foo=1), lambda: round(1, foo=2),
    lambda: round(1, 2, 3), lambda: sum([], foo=1), lambda: print(1, foo=2), lambda: max(1, 2, foo=3),
    lambda: [].insert("a", 1), lambda: "a".zfill("x"), lambda: enumerate([], start="a"), lambda: chr("a"),
    lambda: [].sort(foo=1), lambda: "a".split(maxsplit="x"), lambda: [].count(), lambda: ().count(1, 2),
    lambda: dict.fromkeys(), lambda: int(x=1), lambda: str(foo=1), lambda: hex(), lambda: bin(1, 2),
    lambda: "a".replace(1, 2), lambda: "a".center(2, "ab"), lambda: [].extend(), lambda: {}.setdefault(),
]
for i, c in enumerate(cases):
    try:
        print(i, c())
    except (TypeError, ValueError) as e:
        print(i, type(e).__name__, e)
