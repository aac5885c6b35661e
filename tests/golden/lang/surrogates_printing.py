# str may hold lone surrogates (as CPython's does); printing one to stdout is UnicodeEncodeError
# (stdout is strict UTF-8), after the pieces before it were written.
try:
    print("a\ud800\udc00b\ud801")
except UnicodeEncodeError as e:
    print(e, e.args, e.start, e.end, e.object == "a\ud800\udc00b\ud801", e.encoding, e.reason)
print(UnicodeEncodeError.__mro__)
e = UnicodeEncodeError("utf-8", "x\ud800", 1, 2, "bad")
print(e, e.args, isinstance(e, ValueError))
x = chr(0xdfff)
print(repr(x), ascii(x), len(x), repr("a\ud800b"), f"{x!r}", "%r" % x, x == "\udfff")
print(repr(x + "z")[1:])
try:
    print("ok", "é\udfffz")
except UnicodeError as e:
    print()
    print(type(e).__name__, e)
class Bad:
    def __str__(self):
        raise ValueError("no str")
try:
    print("before", Bad())
except ValueError as e:
    print()
    print("ValueError", e)
