# list.sort() empties the list while it sorts (as CPython does): a key or comparison that
# changes the list makes the sort raise ValueError instead of corrupting memory.
class Evil:
    def __init__(self, v, target):
        self.v = v
        self.target = target

    def __lt__(self, other):
        self.target.append(Evil(0, self.target))
        return self.v < other.v


for n in (3, 50):
    xs = []
    xs.extend(Evil(i, xs) for i in range(n, 0, -1))
    try:
        xs.sort()
    except ValueError as e:
        print(n, "ValueError:", e, len(xs), [o.v for o in xs][:5])

ys = [3, 1, 2]


def key_clears(v):
    print("during sort the list is", ys, len(ys))
    ys.clear()
    return v


ys.sort(key=key_clears)
print("clear of the emptied list is not a change:", ys)


zs = [3, 1, 2]


def key_appends(v):
    zs.append(v)
    return v


try:
    zs.sort(key=key_appends)
except ValueError as e:
    print("ValueError:", e, zs)

ws = [5, 4, 3, 2, 1]


def key_appends_then_pops(v):
    ws.append(0)
    ws.pop()
    return v


try:
    ws.sort(key=key_appends_then_pops)
except ValueError as e:
    print("ValueError:", e, ws)


def failing_key(v):
    if v == 2:
        raise KeyError(v)
    return v


vs = [3, 2, 1]
try:
    vs.sort(key=failing_key)
except KeyError as e:
    print("KeyError", e, vs)


class Inconsistent:
    calls = 0

    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        # An ordering that contradicts itself: the sort must still end with every item.
        Inconsistent.calls += 1
        return (Inconsistent.calls * 7919) % 3 == 0


rs = [Inconsistent(i) for i in range(200)]
rs.sort()
print(sorted(o.v for o in rs) == list(range(200)))
rs = sorted(rs, reverse=True)
print(len(rs))

pairs = [(1, "b"), (0, "a"), (1, "a"), (0, "b")]
print(sorted(pairs, key=lambda p: p[0]))
print(sorted(pairs, key=lambda p: p[0], reverse=True))
compares = []


class Counted:
    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        compares.append(1)
        return self.v < other.v


cs = [Counted(i) for i in range(10)]
cs.sort()
print("comparisons for sorted input:", len(compares))


# count, index and remove compare items whose __eq__ may change the list.
class ClearsOnEq:
    def __init__(self, target):
        self.target = target

    def __eq__(self, other):
        self.target.clear()
        self.target.extend([0] * 20)
        return False


for name in ("count", "index", "remove"):
    xs = []
    xs.extend([ClearsOnEq(xs) for _ in range(5)])
    try:
        print(name, getattr(xs, name)(1), len(xs))
    except ValueError as e:
        print(name, "ValueError:", e, len(xs))


class EmptiesOnEq:
    def __eq__(self, other):
        ys.clear()
        return True


ys = [EmptiesOnEq(), EmptiesOnEq()]
print(ys.remove(1), ys)
ys = [EmptiesOnEq(), EmptiesOnEq(), EmptiesOnEq()]
print(ys.count(0), ys)
