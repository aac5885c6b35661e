# A __repr__ or __str__ that recurses into itself ends in RecursionError (CPython counts the
# repr()/str() calls as recursion levels); only the built-in containers print themselves as
# [...] or {...}.


class ReprCallsRepr:
    def __repr__(self):
        return repr(self)


class ReprInList:
    def __repr__(self):
        return "ReprInList(" + repr([self]) + ")"


class StrCallsStr:
    def __str__(self):
        return str(self)


class ReprInFString:
    def __repr__(self):
        return f"ReprInFString({self!r})"


for make in (lambda: repr(ReprCallsRepr()), lambda: repr(ReprInList()),
             lambda: print(StrCallsStr()), lambda: print([ReprInFString()])):
    try:
        make()
    except RecursionError as e:
        # Which C-level check trips first (and so the message's ending) depends on CPython's
        # internals; the error and its start are what matter.
        print("RecursionError:", str(e).startswith("maximum recursion depth exceeded"))


class NotAString:
    def __repr__(self):
        return 5


for convert in (repr, str):
    try:
        convert(NotAString())
    except TypeError as e:
        print("TypeError:", e)

xs = [1]
xs.append(xs)
d = {}
d["self"] = d
print(xs, d, (xs,))


class Fine:
    def __repr__(self):
        return "Fine(" + repr(self.__dict__) + ")"


f = Fine()
f.other = Fine()
print(f, [f], str(f))
