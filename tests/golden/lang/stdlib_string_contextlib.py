# string (constants, capwords, Template) and contextlib (nullcontext, suppress, closing,
# ExitStack).
import string
from contextlib import ExitStack, closing, nullcontext, suppress

print(string.ascii_letters, string.digits, string.hexdigits, string.octdigits)
print(repr(string.punctuation), repr(string.whitespace), len(string.printable))
print(string.capwords("hello   wide world"), string.capwords("a-b-c", "-"))
t = string.Template("$who likes ${what}; $$5 is ${who}'s")
print(t.substitute(who="tim", what="kung pao"), t.substitute({"who": "al", "what": "x"}))
print(t.safe_substitute(who="ann"), t.get_identifiers(), t.template)
for bad in ({"who": 1}, ):
    try:
        t.substitute(bad)
    except KeyError as e:
        print("KeyError:", e)
try:
    string.Template("cost: $").substitute()
except ValueError as e:
    print("ValueError:", e)
print(string.Template("$a$b").substitute(a=1, b=2.5))
with nullcontext(5) as v:
    print("nullcontext", v)
with nullcontext():
    print("empty nullcontext")
with suppress(KeyError, IndexError):
    {}["missing"]
print("suppressed")
try:
    with suppress(KeyError):
        raise ValueError("not suppressed")
except ValueError as e:
    print("ValueError:", e)


class Resource:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        print("enter", self.name)
        return self

    def __exit__(self, *exc):
        print("exit", self.name, exc[0].__name__ if exc[0] else None)
        return False

    def close(self):
        print("closed", self.name)


with closing(Resource("file")) as r:
    print("using", r.name)
with ExitStack() as stack:
    a = stack.enter_context(Resource("a"))
    b = stack.enter_context(Resource("b"))
    stack.callback(print, "callback ran")
    print("inside", a.name, b.name)
try:
    with ExitStack() as stack:
        stack.enter_context(Resource("c"))
        raise RuntimeError("boom")
except RuntimeError as e:
    print("RuntimeError:", e)
