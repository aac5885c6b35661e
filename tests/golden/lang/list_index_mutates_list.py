# An __index__ that empties the list being indexed: the length is read after the index.
l = []
class I:
    def __index__(s):
        l.clear()
        return 5
def c0(): del l[I()]
def c1(): del l[1:I()]
def c2(): return l.pop(I())
def c3(): l[2:I()] = [7, 7, 7]
def c4(): return l[I()]
def c5(): l.insert(I(), 'x')
def c6(): return l[::I()]
def c7(): l[I()] = 9
def c8(): return l[I():]
def c9(): del l[::I()]
for n, c in enumerate([c0, c1, c2, c3, c4, c5, c6, c7, c8, c9]):
    l[:] = list(range(10))
    try:
        print(n, "->", c(), l)
    except Exception as e:
        print(n, "->", type(e).__name__, e, l)
