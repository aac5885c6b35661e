five, text, nothing, items = 5, "s", None, [1]
cases = [
    lambda: len(5), lambda: len(None), lambda: abs("x"), lambda: sum(["a", "b"]), lambda: sum([1], "s"),
    lambda: int("x"), lambda: int("1.5"), lambda: int(""), lambda: int(None), lambda: int([1]),
    lambda: float("x"), lambda: float([]), lambda: int("9", 8), lambda: chr(-1), lambda: ord("ab"),
    lambda: ord(""), lambda: list(5), lambda: tuple(3.5), lambda: dict([1, 2]), lambda: dict([(1, 2, 3)]),
    lambda: iter(5), lambda: next([1]), lambda: range(1.5), lambda: range(0, 10, 0), lambda: enumerate(3),
    lambda: zip([1], 2), lambda: sorted(5), lambda: reversed(5), lambda: min(5), lambda: max(1, "a"),
    lambda: isinstance(1, 5), lambda: issubclass(1, int), lambda: getattr(1, "nope"), lambda: getattr(1, 5),
    lambda: setattr(1, "x", 2), lambda: hash([]), lambda: hash({}), lambda: {[1]: 2}, lambda: divmod("a", 1),
    lambda: pow("a", 2), lambda: round(None), lambda: bool(1, 2),
    lambda: len(), lambda: len(1, 2), lambda: abs(), lambda: print(sep=5), lambda: hex(1.5), lambda: bin("1"),
    lambda: dict(1), lambda: list(1, 2), lambda: map(), lambda: filter(None), lambda: callable(),
    lambda: repr(), lambda: five(), lambda: text(), lambda: nothing(), lambda: items(2),
    lambda: iter(None), lambda: sum(5), lambda: any(5), lambda: all(None),
    lambda: int("12", base=1), lambda: float("1e"), lambda: abs(None),
]
for i, c in enumerate(cases):
    try:
        r = c()
        print(i, "no error", r)
    except (TypeError, ValueError, AttributeError, StopIteration) as e:
        print(i, type(e).__name__, e)
