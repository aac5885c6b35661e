# itertools for Kiln workloads. Kiln has no generators yet, so every function returns an
# iterator object (__iter__/__next__) with CPython's laziness: count, repeat, cycle, islice,
# accumulate, chain, zip_longest, starmap, takewhile, dropwhile and groupby consume their input
# only as they are advanced. product, permutations and combinations read their input up front,
# as CPython's do.


class _Iterator:
    def __iter__(self):
        return self


class count(_Iterator):
    def __init__(self, start=0, step=1):
        self._n = start
        self._step = step

    def __next__(self):
        n = self._n
        self._n = n + self._step
        return n

    def __repr__(self):
        if self._step == 1:
            return f"count({self._n!r})"
        return f"count({self._n!r}, {self._step!r})"


class repeat(_Iterator):
    def __init__(self, object, times=None):
        self._object = object
        self._times = None if times is None else max(times, 0)

    def __next__(self):
        if self._times is not None:
            if self._times == 0:
                raise StopIteration
            self._times -= 1
        return self._object

    def __len__(self):
        if self._times is None:
            raise TypeError("len() of unsized object")
        return self._times

    def __repr__(self):
        if self._times is None:
            return f"repeat({self._object!r})"
        return f"repeat({self._object!r}, {self._times})"


class cycle(_Iterator):
    def __init__(self, iterable):
        self._it = iter(iterable)
        self._saved = []
        self._index = -1

    def __next__(self):
        if self._index < 0:
            try:
                value = next(self._it)
                self._saved.append(value)
                return value
            except StopIteration:
                if not self._saved:
                    raise
                self._index = 0
        value = self._saved[self._index]
        self._index = (self._index + 1) % len(self._saved)
        return value


class chain(_Iterator):
    def __init__(self, *iterables):
        self._sources = iter(iterables)
        self._current = None

    @classmethod
    def from_iterable(cls, iterables):
        c = cls()
        c._sources = iter(iterables)
        return c

    def __next__(self):
        while True:
            if self._current is None:
                self._current = iter(next(self._sources))
            try:
                return next(self._current)
            except StopIteration:
                self._current = None


class islice(_Iterator):
    def __init__(self, iterable, *args):
        if len(args) == 1:
            start, stop, step = None, args[0], None
        elif len(args) in (2, 3):
            start, stop = args[0], args[1]
            step = args[2] if len(args) == 3 else None
        else:
            raise TypeError(f"islice expected at most 4 arguments, got {len(args) + 1}")
        if stop is not None and (not isinstance(stop, int) or stop < 0):
            raise ValueError("Stop argument for islice() must be None or an integer: "
                             "0 <= x <= sys.maxsize.")
        if start is not None and (not isinstance(start, int) or start < 0):
            raise ValueError("Indices for islice() must be None or an integer: "
                             "0 <= x <= sys.maxsize.")
        if step is not None and (not isinstance(step, int) or step < 1):
            raise ValueError("Step for islice() must be a positive integer or None.")
        self._it = iter(iterable)
        self._next = 0 if start is None else start
        self._stop = stop
        self._step = 1 if step is None else step
        self._pos = 0

    def __next__(self):
        if self._stop is not None and self._next >= self._stop:
            raise StopIteration
        while self._pos < self._next:
            next(self._it)
            self._pos += 1
        value = next(self._it)
        self._pos += 1
        self._next += self._step
        return value


class accumulate(_Iterator):
    def __init__(self, iterable, func=None, *, initial=None):
        self._it = iter(iterable)
        self._func = func
        self._total = initial
        self._started = initial is not None
        self._pending_initial = initial is not None

    def __next__(self):
        if self._pending_initial:
            self._pending_initial = False
            return self._total
        value = next(self._it)
        if not self._started:
            self._started = True
            self._total = value
        elif self._func is None:
            self._total = self._total + value
        else:
            self._total = self._func(self._total, value)
        return self._total


class starmap(_Iterator):
    def __init__(self, function, iterable):
        self._function = function
        self._it = iter(iterable)

    def __next__(self):
        return self._function(*next(self._it))


class takewhile(_Iterator):
    def __init__(self, predicate, iterable):
        self._predicate = predicate
        self._it = iter(iterable)
        self._done = False

    def __next__(self):
        if self._done:
            raise StopIteration
        value = next(self._it)
        if self._predicate(value):
            return value
        self._done = True
        raise StopIteration


class dropwhile(_Iterator):
    def __init__(self, predicate, iterable):
        self._predicate = predicate
        self._it = iter(iterable)
        self._dropping = True

    def __next__(self):
        while self._dropping:
            value = next(self._it)
            if not self._predicate(value):
                self._dropping = False
                return value
        return next(self._it)


class filterfalse(_Iterator):
    def __init__(self, predicate, iterable):
        self._predicate = bool if predicate is None else predicate
        self._it = iter(iterable)

    def __next__(self):
        while True:
            value = next(self._it)
            if not self._predicate(value):
                return value


class compress(_Iterator):
    def __init__(self, data, selectors):
        self._pairs = zip(data, selectors)

    def __next__(self):
        while True:
            value, keep = next(self._pairs)
            if keep:
                return value


class zip_longest(_Iterator):
    def __init__(self, *iterables, fillvalue=None):
        self._its = [iter(it) for it in iterables]
        self._active = len(self._its)
        self._fill = fillvalue

    def __next__(self):
        if not self._its or self._active == 0:
            raise StopIteration
        values = []
        for i, it in enumerate(self._its):
            if it is None:
                values.append(self._fill)
                continue
            try:
                values.append(next(it))
            except StopIteration:
                self._active -= 1
                if self._active == 0:
                    raise
                self._its[i] = None
                values.append(self._fill)
        return tuple(values)


class pairwise(_Iterator):
    def __init__(self, iterable):
        self._it = iter(iterable)
        self._last = None
        self._started = False

    def __next__(self):
        if not self._started:
            self._last = next(self._it)
            self._started = True
        value = next(self._it)
        pair = (self._last, value)
        self._last = value
        return pair


class groupby(_Iterator):
    # Each group is read when groupby advances to it (CPython's groups are lazy views that the
    # next advance invalidates; reading them right away gives the same values in every use that
    # CPython supports).
    def __init__(self, iterable, key=None):
        self._it = iter(iterable)
        self._key = (lambda v: v) if key is None else key
        self._pending = []

    def __next__(self):
        if not self._pending:
            value = next(self._it)
            self._pending = [value]
        first = self._pending[0]
        k = self._key(first)
        group = [first]
        self._pending = []
        for value in self._it:
            if self._key(value) == k:
                group.append(value)
            else:
                self._pending = [value]
                break
        return k, iter(group)


def tee(iterable, n=2):
    if n < 0:
        raise ValueError("n must be >= 0")
    items = list(iterable)
    return tuple(iter(list(items)) for _ in range(n))


def product(*iterables, repeat=1):
    if repeat < 0:
        raise ValueError("repeat argument cannot be negative")
    pools = [tuple(pool) for pool in iterables] * repeat
    result = [()]
    for pool in pools:
        result = [x + (y,) for x in result for y in pool]
    return iter(result)


def permutations(iterable, r=None):
    pool = tuple(iterable)
    n = len(pool)
    r = n if r is None else r
    if r < 0:
        raise ValueError("r must be non-negative")
    out = []
    if r > n:
        return iter(out)

    def extend(prefix, used):
        if len(prefix) == r:
            out.append(tuple(pool[i] for i in prefix))
            return
        for i in range(n):
            if not used[i]:
                used[i] = True
                extend(prefix + [i], used)
                used[i] = False

    extend([], [False] * n)
    return iter(out)


def _combinations(pool, r, start, prefix, out, replace):
    if len(prefix) == r:
        out.append(tuple(prefix))
        return
    for i in range(start, len(pool)):
        _combinations(pool, r, i if replace else i + 1, prefix + [pool[i]], out, replace)


def combinations(iterable, r):
    if r < 0:
        raise ValueError("r must be non-negative")
    out = []
    _combinations(tuple(iterable), r, 0, [], out, False)
    return iter(out)


def combinations_with_replacement(iterable, r):
    if r < 0:
        raise ValueError("r must be non-negative")
    pool = tuple(iterable)
    out = []
    if pool or r == 0:
        _combinations(pool, r, 0, [], out, True)
    return iter(out)

