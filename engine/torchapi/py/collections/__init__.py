# collections for Kiln workloads: OrderedDict (which torch.nn returns from state_dict() and
# accepts in nn.Sequential), namedtuple, defaultdict, Counter and deque. Kiln's interpreter does
# not subclass built-in types, so the mappings are written over a plain dict (Kiln's dicts keep
# insertion order) and are not dict instances; namedtuple classes are not tuple subclasses.


class OrderedDict:
    def __init__(self, other=(), **kwargs):
        self._data = {}
        self.update(other, **kwargs)

    def update(self, other=(), **kwargs):
        if isinstance(other, (dict, OrderedDict)):
            other = other.items()
        for key, value in other:
            self._data[key] = value
        for key, value in kwargs.items():
            self._data[key] = value

    def __getitem__(self, key):
        return self._data[key]

    def __setitem__(self, key, value):
        self._data[key] = value

    def __delitem__(self, key):
        del self._data[key]

    def __contains__(self, key):
        return key in self._data

    def __len__(self):
        return len(self._data)

    def __iter__(self):
        return iter(self._data)

    def __eq__(self, other):
        if isinstance(other, OrderedDict):
            return list(self._data.items()) == list(other._data.items())
        if isinstance(other, dict):
            return self._data == other
        return False

    def __ne__(self, other):
        return not self == other

    def keys(self):
        return self._data.keys()

    def values(self):
        return self._data.values()

    def items(self):
        return self._data.items()

    def get(self, key, default=None):
        return self._data.get(key, default)

    def pop(self, key, *default):
        return self._data.pop(key, *default)

    def popitem(self, last=True):
        if not self._data:
            raise KeyError("dictionary is empty")
        keys = list(self._data.keys())
        key = keys[-1] if last else keys[0]
        return key, self._data.pop(key)

    def setdefault(self, key, default=None):
        if key not in self._data:
            self._data[key] = default
        return self._data[key]

    def move_to_end(self, key, last=True):
        value = self._data.pop(key)
        if last:
            self._data[key] = value
        else:
            rest = list(self._data.items())
            self._data = {key: value}
            for k, v in rest:
                self._data[k] = v

    def clear(self):
        self._data.clear()

    def copy(self):
        return OrderedDict(self)

    def __repr__(self):
        if not self._data:
            return "OrderedDict()"
        return "OrderedDict(" + repr(list(self._data.items())) + ")"


def _count_args(missing):
    # CPython's "2 required positional arguments: 'x' and 'y'" ('x', 'y', and 'z' for three).
    quoted = [repr(m) for m in missing]
    if len(quoted) == 1:
        names = quoted[0]
    elif len(quoted) == 2:
        names = quoted[0] + " and " + quoted[1]
    else:
        names = ", ".join(quoted[:-1]) + ", and " + quoted[-1]
    plural = "s" if len(missing) > 1 else ""
    return f"{len(missing)} required positional argument{plural}: {names}"


def _namedtuple_methods(cls, fields, defaults):
    def __init__(self, *args, **kwargs):
        if len(args) > len(fields):
            raise TypeError(f"{cls.__name__}.__new__() takes {len(fields) + 1} positional "
                            f"arguments but {len(args) + 1} were given")
        values = dict(zip(fields, args))
        for key, value in kwargs.items():
            if key not in fields:
                raise TypeError(f"{cls.__name__}.__new__() got an unexpected keyword "
                                f"argument '{key}'")
            if key in values:
                raise TypeError(f"{cls.__name__}.__new__() got multiple values for argument "
                                f"'{key}'")
            values[key] = value
        missing = [f for f in fields if f not in values and f not in defaults]
        if missing:
            raise TypeError(f"{cls.__name__}.__new__() missing {_count_args(missing)}")
        for f in fields:
            object.__setattr__(self, f, values[f] if f in values else defaults[f])

    def __repr__(self):
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in fields)
        return f"{cls.__name__}({inner})"

    def __iter__(self):
        return iter([getattr(self, f) for f in fields])

    def __len__(self):
        return len(fields)

    def __getitem__(self, index):
        return tuple(getattr(self, f) for f in fields)[index]

    def __eq__(self, other):
        return tuple(self) == tuple(other)

    def __hash__(self):
        return hash(tuple(self))

    def _asdict(self):
        return {f: getattr(self, f) for f in fields}

    def _replace(self, **changes):
        values = self._asdict()
        values.update(changes)
        return cls(**values)

    for fn in (__init__, __repr__, __iter__, __len__, __getitem__, __eq__, __hash__, _asdict,
               _replace):
        setattr(cls, fn.__name__, fn)
    cls._fields = tuple(fields)
    cls._field_defaults = dict(defaults)


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(",", " ").split()
    fields = [str(f) for f in field_names]
    for name in [typename] + fields:
        if not name.isidentifier():
            raise ValueError(f"Type names and field names must be valid identifiers: {name!r}")
    seen = []
    for name in fields:
        if name.startswith("_"):
            raise ValueError(f"Field names cannot start with an underscore: {name!r}")
        if name in seen:
            raise ValueError(f"Encountered duplicate field name: {name!r}")
        seen.append(name)
    defaults = tuple(defaults or ())
    if len(defaults) > len(fields):
        raise TypeError("Got more default values than field names")
    cls = type(typename, (), {})
    cls.__module__ = module or "__main__"
    _namedtuple_methods(cls, fields, dict(zip(fields[len(fields) - len(defaults):], defaults)))
    return cls


class defaultdict:
    def __init__(self, default_factory=None, *args, **kwargs):
        if default_factory is not None and not callable(default_factory):
            raise TypeError("first argument must be callable or None")
        self.default_factory = default_factory
        self._data = dict(*args, **kwargs)

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        value = self.default_factory()
        self._data[key] = value
        return value

    def __getitem__(self, key):
        if key in self._data:
            return self._data[key]
        return self.__missing__(key)

    def __setitem__(self, key, value):
        self._data[key] = value

    def __delitem__(self, key):
        del self._data[key]

    def __contains__(self, key):
        return key in self._data

    def __len__(self):
        return len(self._data)

    def __iter__(self):
        return iter(self._data)

    def __eq__(self, other):
        if isinstance(other, (defaultdict, Counter, OrderedDict)):
            other = other._data
        return self._data == other

    def get(self, key, default=None):
        return self._data.get(key, default)

    def keys(self):
        return self._data.keys()

    def values(self):
        return self._data.values()

    def items(self):
        return self._data.items()

    def pop(self, key, *default):
        return self._data.pop(key, *default)

    def setdefault(self, key, default=None):
        return self._data.setdefault(key, default)

    def update(self, *args, **kwargs):
        self._data.update(*args, **kwargs)

    def clear(self):
        self._data.clear()

    def copy(self):
        return defaultdict(self.default_factory, self._data)

    def __repr__(self):
        factory = repr(self.default_factory)
        return f"defaultdict({factory}, {self._data!r})"


class Counter:
    def __init__(self, iterable=None, /, **kwds):
        self._data = {}
        self.update(iterable, **kwds)

    def __missing__(self, key):
        return 0

    def __getitem__(self, key):
        if key in self._data:
            return self._data[key]
        return 0

    def __setitem__(self, key, value):
        self._data[key] = value

    def __delitem__(self, key):
        if key in self._data:
            del self._data[key]

    def __contains__(self, key):
        return key in self._data

    def __len__(self):
        return len(self._data)

    def __iter__(self):
        return iter(self._data)

    def __eq__(self, other):
        if isinstance(other, Counter):
            other = other._data
        return {k: v for k, v in self._data.items() if v} == {
            k: v for k, v in dict(other).items() if v}

    def get(self, key, default=None):
        return self._data.get(key, default)

    def keys(self):
        return self._data.keys()

    def values(self):
        return self._data.values()

    def items(self):
        return self._data.items()

    def pop(self, key, *default):
        return self._data.pop(key, *default)

    def total(self):
        return sum(self._data.values())

    def most_common(self, n=None):
        ordered = sorted(self._data.items(), key=lambda kv: kv[1], reverse=True)
        return ordered if n is None else ordered[:n]

    def elements(self):
        out = []
        for key, count in self._data.items():
            out.extend([key] * max(count, 0))
        return iter(out)

    def update(self, iterable=None, /, **kwds):
        if iterable is not None:
            if isinstance(iterable, (dict, Counter)):
                for key, count in iterable.items():
                    self._data[key] = self[key] + count
            else:
                for key in iterable:
                    self._data[key] = self[key] + 1
        if kwds:
            self.update(kwds)

    def subtract(self, iterable=None, /, **kwds):
        if iterable is not None:
            pairs = iterable.items() if isinstance(iterable, (dict, Counter)) else [
                (key, 1) for key in iterable]
            for key, count in pairs:
                self._data[key] = self[key] - count
        if kwds:
            self.subtract(kwds)

    def _combine(self, other, op, keep):
        result = Counter()
        for key in list(self._data) + [k for k in other._data if k not in self._data]:
            value = op(self[key], other[key])
            if keep(value):
                result._data[key] = value
        return result

    def __add__(self, other):
        return self._combine(other, lambda a, b: a + b, lambda v: v > 0)

    def __sub__(self, other):
        return self._combine(other, lambda a, b: a - b, lambda v: v > 0)

    def __or__(self, other):
        return self._combine(other, max, lambda v: v > 0)

    def __and__(self, other):
        return self._combine(other, min, lambda v: v > 0)

    def copy(self):
        return Counter(self)

    def clear(self):
        self._data.clear()

    def __repr__(self):
        if not self._data:
            return "Counter()"
        inner = ", ".join(f"{k!r}: {v!r}" for k, v in self.most_common())
        return "Counter({" + inner + "})"


class _DequeIterator:
    def __init__(self, d, backwards):
        self._deque = d
        self._state = d._state
        self._backwards = backwards
        self._index = 0

    def __iter__(self):
        return self

    def __next__(self):
        d = self._deque
        if d._state != self._state:
            raise RuntimeError("deque mutated during iteration")
        if self._index >= len(d._items):
            raise StopIteration
        i = self._index
        self._index += 1
        return d._items[-1 - i] if self._backwards else d._items[i]


class deque:
    def __init__(self, iterable=(), maxlen=None):
        if maxlen is not None and maxlen < 0:
            raise ValueError("maxlen must be non-negative")
        self.maxlen = maxlen
        self._items = []
        # Bumped by every change of length or order: iterators compare it to their own copy, as
        # CPython's deque iterators do ("deque mutated during iteration").
        self._state = 0
        self.extend(iterable)

    def _trim(self, from_left):
        if self.maxlen is not None:
            while len(self._items) > self.maxlen:
                if from_left:
                    self._items.pop(0)
                else:
                    self._items.pop()

    def append(self, x):
        self._state += 1
        self._items.append(x)
        self._trim(True)

    def appendleft(self, x):
        self._state += 1
        self._items.insert(0, x)
        self._trim(False)

    def extend(self, iterable):
        for x in list(iterable):
            self.append(x)

    def extendleft(self, iterable):
        for x in list(iterable):
            self.appendleft(x)

    def pop(self):
        self._state += 1
        if not self._items:
            raise IndexError("pop from an empty deque")
        return self._items.pop()

    def popleft(self):
        self._state += 1
        if not self._items:
            raise IndexError("pop from an empty deque")
        return self._items.pop(0)

    def rotate(self, n=1):
        self._state += 1
        if self._items:
            n %= len(self._items)
            self._items = self._items[-n:] + self._items[:-n] if n else self._items

    def clear(self):
        self._state += 1
        self._items.clear()

    def count(self, x):
        return self._items.count(x)

    def remove(self, x):
        self._state += 1
        self._items.remove(x)

    def reverse(self):
        self._state += 1
        self._items.reverse()

    def copy(self):
        return deque(self._items, self.maxlen)

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return _DequeIterator(self, False)

    def __reversed__(self):
        return _DequeIterator(self, True)

    def __getitem__(self, i):
        return self._items[i]

    def __setitem__(self, i, x):
        self._items[i] = x

    def __contains__(self, x):
        return x in self._items

    def __eq__(self, other):
        return isinstance(other, deque) and self._items == other._items

    def __bool__(self):
        return bool(self._items)

    def __repr__(self):
        if self.maxlen is None:
            return f"deque({self._items!r})"
        return f"deque({self._items!r}, maxlen={self.maxlen})"
