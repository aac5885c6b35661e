a = [1, 2]
b = a
c = [1, 2]
print(a is b, a is c, a == c, a is not c, id(a) == id(b), id(a) == id(c))
print(None is None, True is True, (a is b) is True)
x = None
print(x is None, x == None, x is not None)
s1 = "hello"
s2 = "hel" + "lo"
print(s1 == s2, s1 is s1)
def f():
    pass
g = f
print(f is g, f == g, f is not print)
class O:
    pass
o1, o2 = O(), O()
print(o1 is o2, o1 == o2, o1 != o2, o1 is o1, hash(o1) == hash(o1))
d = {o1: "first", o2: "second"}
print(d[o1], d[o2], len(d))
print([] == [], [] is [] if False else "", {} == {}, () == ())
lst = [o1]
print(o1 in lst, o2 in lst, lst.index(o1), lst.count(o2))
class AlwaysEqual:
    def __eq__(self, other):
        return True
    def __hash__(self):
        return 0
ae = AlwaysEqual()
print(ae == 1, ae in [1, 2], [ae].count(5), ae != 1)
nan = float("nan")
print(nan == nan, nan in [nan], [nan] == [nan], nan is nan)
print(type(None)() is None if False else "", isinstance(None, object))
