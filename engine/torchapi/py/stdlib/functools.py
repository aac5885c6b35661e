# functools for Kiln workloads. lru_cache and cache return real functions (so they bind as
# methods: Kiln has no __get__ descriptors for user classes); cached_property is a property
# that keeps its value on the instance, under the attribute's own name in the instance's
# namespace where CPython does, so assignment and deletion behave the same.

WRAPPER_ASSIGNMENTS = ("__module__", "__name__", "__qualname__", "__doc__")
WRAPPER_UPDATES = ("__dict__",)


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    for attr in assigned:
        if hasattr(wrapped, attr):
            setattr(wrapper, attr, getattr(wrapped, attr))
    for attr in updated:
        if attr == "__dict__":
            for key, value in getattr(wrapped, "__dict__", {}).items():
                setattr(wrapper, key, value)
    wrapper.__wrapped__ = wrapped
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    return partial(update_wrapper, wrapped=wrapped, assigned=assigned, updated=updated)


def reduce(function, sequence, *initial):
    if len(initial) > 1:
        raise TypeError(f"reduce expected at most 3 arguments, got {len(initial) + 2}")
    it = iter(sequence)
    if initial:
        value = initial[0]
    else:
        try:
            value = next(it)
        except StopIteration:
            raise TypeError("reduce() of empty iterable with no initial value") from None
    for element in it:
        value = function(value, element)
    return value


class partial:
    def __init__(self, func, /, *args, **keywords):
        if not callable(func):
            raise TypeError("the first argument must be callable")
        if isinstance(func, partial):
            args = func.args + args
            keywords = {**func.keywords, **keywords}
            func = func.func
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, /, *args, **keywords):
        return self.func(*self.args, *args, **{**self.keywords, **keywords})

    def __repr__(self):
        parts = [repr(self.func)] + [repr(a) for a in self.args]
        parts += [f"{k}={v!r}" for k, v in self.keywords.items()]
        return "functools.partial(" + ", ".join(parts) + ")"


class _CacheInfo:
    def __init__(self, hits, misses, maxsize, currsize):
        self.hits = hits
        self.misses = misses
        self.maxsize = maxsize
        self.currsize = currsize

    def __repr__(self):
        return (f"CacheInfo(hits={self.hits}, misses={self.misses}, maxsize={self.maxsize}, "
                f"currsize={self.currsize})")

    def __eq__(self, other):
        return tuple(self) == tuple(other)

    def __iter__(self):
        return iter([self.hits, self.misses, self.maxsize, self.currsize])


def _make_key(args, kwargs, typed):
    key = args
    if kwargs:
        key = key + ("<kwd_mark>",) + tuple(kwargs.items())
    if typed:
        key = key + tuple(type(v) for v in args) + tuple(type(v) for v in kwargs.values())
    return key


def _lru_wrapper(user_function, maxsize, typed):
    cache = {}
    stats = [0, 0]  # hits, misses

    def wrapper(*args, **kwargs):
        key = _make_key(args, kwargs, typed)
        if key in cache:
            stats[0] += 1
            result = cache.pop(key)
            cache[key] = result  # most recently used goes last
            return result
        stats[1] += 1
        result = user_function(*args, **kwargs)
        if maxsize != 0:
            cache[key] = result
            if maxsize is not None and len(cache) > maxsize:
                del cache[next(iter(cache))]
        return result

    def cache_info():
        return _CacheInfo(stats[0], stats[1], maxsize, len(cache))

    def cache_clear():
        cache.clear()
        stats[0] = 0
        stats[1] = 0

    update_wrapper(wrapper, user_function)
    wrapper.cache_info = cache_info
    wrapper.cache_clear = cache_clear
    wrapper.cache_parameters = lambda: {"maxsize": maxsize, "typed": typed}
    return wrapper


def lru_cache(maxsize=128, typed=False):
    if isinstance(maxsize, int) and not isinstance(maxsize, bool):
        if maxsize < 0:
            maxsize = 0
    elif callable(maxsize) and isinstance(typed, bool):
        return _lru_wrapper(maxsize, 128, typed)
    elif maxsize is not None:
        raise TypeError("Expected first argument to be an integer, a callable, or None")

    def decorating_function(user_function):
        return _lru_wrapper(user_function, maxsize, typed)

    return decorating_function


def cache(user_function):
    return _lru_wrapper(user_function, None, False)


def cached_property(func):
    name = func.__name__
    slot = "_cached_property_" + name

    def getter(self):
        try:
            return object.__getattribute__(self, slot)
        except AttributeError:
            value = func(self)
            object.__setattr__(self, slot, value)
            return value

    def setter(self, value):
        object.__setattr__(self, slot, value)

    def deleter(self):
        try:
            object.__delattr__(self, slot)
        except AttributeError:
            raise AttributeError(name) from None

    return property(getter, setter, deleter, func.__doc__)


def total_ordering(cls):
    own = cls.__dict__
    roots = [op for op in ("__lt__", "__le__", "__gt__", "__ge__") if op in own]
    if not roots:
        raise ValueError("must define at least one ordering operation: < > <= >=")
    root = roots[0]
    derived = {
        "__lt__": {"__gt__": lambda s, o: _not_and_ne(s.__lt__(o), s, o),
                   "__le__": lambda s, o: _or_eq(s.__lt__(o), s, o),
                   "__ge__": lambda s, o: _not(s.__lt__(o))},
        "__le__": {"__ge__": lambda s, o: _not_and_ne(s.__le__(o), s, o),
                   "__lt__": lambda s, o: _and_ne(s.__le__(o), s, o),
                   "__gt__": lambda s, o: _not(s.__le__(o))},
        "__gt__": {"__lt__": lambda s, o: _not_and_ne(s.__gt__(o), s, o),
                   "__ge__": lambda s, o: _or_eq(s.__gt__(o), s, o),
                   "__le__": lambda s, o: _not(s.__gt__(o))},
        "__ge__": {"__le__": lambda s, o: _not_and_ne(s.__ge__(o), s, o),
                   "__gt__": lambda s, o: _and_ne(s.__ge__(o), s, o),
                   "__lt__": lambda s, o: _not(s.__ge__(o))},
    }[root]
    for name, method in derived.items():
        if name not in roots:
            setattr(cls, name, method)
    return cls


def _not_and_ne(result, s, o):
    # CPython's formulas, e.g. a > b from __lt__: "not (a < b) and a != b".
    if result is NotImplemented:
        return NotImplemented
    return not result and s != o


def _or_eq(result, s, o):
    if result is NotImplemented:
        return NotImplemented
    return result or s == o


def _and_ne(result, s, o):
    if result is NotImplemented:
        return NotImplemented
    return result and s != o


def _not(result):
    if result is NotImplemented:
        return NotImplemented
    return not result


def cmp_to_key(mycmp):
    class K:
        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return mycmp(self.obj, other.obj) < 0

        def __gt__(self, other):
            return mycmp(self.obj, other.obj) > 0

        def __eq__(self, other):
            return mycmp(self.obj, other.obj) == 0

        def __le__(self, other):
            return mycmp(self.obj, other.obj) <= 0

        def __ge__(self, other):
            return mycmp(self.obj, other.obj) >= 0

    return K
