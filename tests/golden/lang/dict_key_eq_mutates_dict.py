# A key's __eq__ that changes the dict during a lookup: the lookup starts over, as CPython's.
d = {}
class K:
    def __hash__(s): return 1
    def __eq__(s, o): d.clear(); return False
d[K()] = 1
try:
    print(d[K()])
except KeyError as e:
    print("KeyError")
print(len(d))
for op in ("in", "get", "pop", "setdefault", "del", "update"):
    d[K()] = 1
    try:
        if op == "in": r = K() in d
        elif op == "get": r = d.get(K(), "missing")
        elif op == "pop": r = d.pop(K(), "missing")
        elif op == "setdefault": r = d.setdefault(K(), 3)
        elif op == "del":
            del d[K()]
            r = None
        elif op == "update":
            d.update({K(): 4})
            r = len(d)
        else: r = d == {K(): 1}
        print(op, r, len(d))
    except KeyError:
        print(op, "KeyError", len(d))
e = {}
class K3:
    def __hash__(s): return 7
    def __eq__(s, o):
        for k in list(e): del e[k]
        return True
e[K3()] = 1
e[K3()] = 2
print(len(e), list(e.values()))
