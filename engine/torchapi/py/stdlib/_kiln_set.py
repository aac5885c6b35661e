# set and frozenset for Kiln workloads: Python classes over a dict of their elements, installed
# as builtins.set/frozenset (`{a, b}` and set comprehensions build a set). As CPython's, with
# one difference: iteration (and so printing) follows insertion order, where CPython follows
# the hashes (for str, a different order in every process).


def _items(iterable):
    if isinstance(iterable, (set, frozenset)):
        return iterable._d
    d = {}
    for x in iterable:
        d[x] = None
    return d


class frozenset:
    def __init__(self, iterable=()):
        self._d = _items(iterable) if not isinstance(iterable, (set, frozenset)) else dict(iterable._d)

    def __class_getitem__(cls, item):
        import types
        return types.GenericAlias(cls, item)

    def _new(self, d):
        out = type(self).__new__(type(self))
        out._d = d
        return out

    def __len__(self):
        return len(self._d)

    def __iter__(self):
        return iter(list(self._d))

    def __contains__(self, x):
        return x in self._d

    def __repr__(self):
        name = type(self).__name__
        if not self._d:
            return name + "()"
        inner = "{" + ", ".join(repr(x) for x in self._d) + "}"
        return inner if name == "set" else name + "(" + inner + ")"

    def __eq__(self, other):
        if not isinstance(other, (set, frozenset)):
            return NotImplemented
        return len(self._d) == len(other._d) and all(x in other._d for x in self._d)

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __hash__(self):
        # Order-independent: the elements' scrambled hashes combined by xor (tuple hashing
        # does the scrambling, in 64 bits).
        h = hash((len(self._d), 1927868237))
        for x in self._d:
            h ^= hash((hash(x), 3644798167))
        return h

    def copy(self):
        return self._new(dict(self._d))

    def union(self, *others):
        d = dict(self._d)
        for o in others:
            d.update(_items(o))
        return self._new(d)

    def intersection(self, *others):
        d = dict(self._d)
        for o in others:
            keep = _items(o)
            d = {x: None for x in d if x in keep}
        return self._new(d)

    def difference(self, *others):
        d = dict(self._d)
        for o in others:
            drop = _items(o)
            d = {x: None for x in d if x not in drop}
        return self._new(d)

    def symmetric_difference(self, other):
        o = _items(other)
        d = {x: None for x in self._d if x not in o}
        for x in o:
            if x not in self._d:
                d[x] = None
        return self._new(d)

    def issubset(self, other):
        o = _items(other)
        return all(x in o for x in self._d)

    def issuperset(self, other):
        return all(x in self._d for x in _items(other))

    def isdisjoint(self, other):
        return not any(x in self._d for x in _items(other))

    def _operand(self, other):
        return isinstance(other, (set, frozenset))

    def __or__(self, other):
        return self.union(other) if self._operand(other) else NotImplemented

    def __and__(self, other):
        return self.intersection(other) if self._operand(other) else NotImplemented

    def __sub__(self, other):
        return self.difference(other) if self._operand(other) else NotImplemented

    def __xor__(self, other):
        return self.symmetric_difference(other) if self._operand(other) else NotImplemented

    def __le__(self, other):
        return self.issubset(other) if self._operand(other) else NotImplemented

    def __lt__(self, other):
        return self._operand(other) and len(self) < len(other) and self.issubset(other)

    def __ge__(self, other):
        return self.issuperset(other) if self._operand(other) else NotImplemented

    def __gt__(self, other):
        return self._operand(other) and len(self) > len(other) and self.issuperset(other)


class set(frozenset):
    __hash__ = None

    def add(self, x):
        self._d[x] = None

    def discard(self, x):
        self._d.pop(x, None)

    def remove(self, x):
        if x not in self._d:
            raise KeyError(x)
        del self._d[x]

    def pop(self):
        if not self._d:
            raise KeyError("pop from an empty set")
        x = next(iter(self._d))
        del self._d[x]
        return x

    def clear(self):
        self._d = {}

    def update(self, *others):
        for o in others:
            self._d.update(_items(o))

    def intersection_update(self, *others):
        self._d = self.intersection(*others)._d

    def difference_update(self, *others):
        self._d = self.difference(*others)._d

    def symmetric_difference_update(self, other):
        self._d = self.symmetric_difference(other)._d

    def __ior__(self, other):
        self.update(other)
        return self

    def __iand__(self, other):
        self.intersection_update(other)
        return self

    def __isub__(self, other):
        self.difference_update(other)
        return self

    def __ixor__(self, other):
        self.symmetric_difference_update(other)
        return self
