# set and frozenset: displays, comprehensions, the methods and operators, hashing of frozenset,
# PyTorch-style uses (no_decay name filters). Iteration order is not relied on (sorted).
from typing import Set, FrozenSet
s = {3, 1, 2, 1}
e = set()
print(len(s), 2 in s, 5 in s, sorted(s), e, type(s).__name__, type(s), isinstance(s, set))
print(sorted({x % 3 for x in range(10)}), {*[1, 2], 2}, set("aab") == {"a", "b"}, set([1]) == frozenset([1]))
s.add(7); s.discard(3); s.remove(1)
print(sorted(s), sorted(s | {9}), sorted(s & {2, 9}), sorted(s - {2}), sorted(s ^ {2, 8}), {1, 2} <= {1, 2, 3}, {1} < {1}, {1, 2} > {1})
f = frozenset([1, 2])
print(f, hash(f) == hash(frozenset([2, 1])), {f: 1}[frozenset([2, 1])], frozenset(), repr(set()))
try:
    hash(s)
except TypeError as ex:
    print("TypeError:", ex)
try:
    set().pop()
except KeyError as ex:
    print("KeyError:", ex)
try:
    {1}.remove(2)
except KeyError as ex:
    print("KeyError:", ex)
no_decay = {"bias", "LayerNorm.weight"}
names = ["a.bias", "b.weight", "LayerNorm.weight"]
print([n for n in names if any(nd in n for nd in no_decay)], len(no_decay))
d = {1: "a"}
u = set(); u.update([1, 2], (3,)); print(sorted(u), sorted(set(d)), set[int], list({5}))
x: Set[str] = {"q"}
print(x, {"only"}, {1, 2}.isdisjoint([3]), {1, 2}.union([3], [4]) == {1, 2, 3, 4})
