# abc for Kiln workloads: CPython 3.11's ABCMeta (its pure-Python _py_abc version), a real
# metaclass: `type(ABC) is ABCMeta`, __abstractmethods__ is a frozenset of the abstract names
# left, instantiating a class that still has some is CPython's TypeError (object.__new__
# checks it), register() makes virtual subclasses that isinstance() and issubclass() honour,
# __subclasshook__ is consulted. The caches hold classes strongly (Kiln has no weak
# references).


def abstractmethod(funcobj):
    funcobj.__isabstractmethod__ = True
    return funcobj


# CPython's are subclasses of classmethod/staticmethod; Kiln cannot subclass those, so these
# return the plain descriptors marked abstract.
def abstractclassmethod(callable):
    callable.__isabstractmethod__ = True
    return classmethod(callable)


def abstractstaticmethod(callable):
    callable.__isabstractmethod__ = True
    return staticmethod(callable)


def abstractproperty(fget=None, fset=None, fdel=None, doc=None):
    if fget is not None:
        fget.__isabstractmethod__ = True
    return property(fget, fset, fdel, doc)


def get_cache_token():
    return ABCMeta._abc_invalidation_counter


def _is_abstract(value):
    return getattr(value, "__isabstractmethod__", False) is True


class ABCMeta(type):
    # Bumped by every register(): the negative caches of all ABCs are stale then.
    _abc_invalidation_counter = 0

    def __new__(mcls, name, bases, namespace, /, **kwargs):
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        abstracts = {name for name, value in namespace.items() if _is_abstract(value)}
        for base in bases:
            for name in getattr(base, "__abstractmethods__", set()):
                value = getattr(cls, name, None)
                if _is_abstract(value):
                    abstracts.add(name)
        cls.__abstractmethods__ = frozenset(abstracts)
        cls._abc_registry = set()
        cls._abc_cache = set()
        cls._abc_negative_cache = set()
        cls._abc_negative_cache_version = ABCMeta._abc_invalidation_counter
        return cls

    def register(cls, subclass):
        if not isinstance(subclass, type):
            raise TypeError("Can only register classes")
        if issubclass(subclass, cls):
            return subclass  # Already a subclass
        # Subtle: test for cycles *after* testing for "already a subclass";
        # this means we allow X.register(X) and interpret it as a no-op.
        if issubclass(cls, subclass):
            # This would create a cycle, which is bad for the algorithm below
            raise RuntimeError("Refusing to create an inheritance cycle")
        cls._abc_registry.add(subclass)
        ABCMeta._abc_invalidation_counter += 1  # Invalidate negative cache
        return subclass

    def __instancecheck__(cls, instance):
        subclass = instance.__class__
        if subclass in cls._abc_cache:
            return True
        subtype = type(instance)
        if subtype is subclass:
            if (cls._abc_negative_cache_version == ABCMeta._abc_invalidation_counter
                    and subclass in cls._abc_negative_cache):
                return False
            return cls.__subclasscheck__(subclass)
        return any(cls.__subclasscheck__(c) for c in (subclass, subtype))

    def __subclasscheck__(cls, subclass):
        if not isinstance(subclass, type):
            raise TypeError("issubclass() arg 1 must be a class")
        if subclass in cls._abc_cache:
            return True
        if cls._abc_negative_cache_version < ABCMeta._abc_invalidation_counter:
            cls._abc_negative_cache = set()
            cls._abc_negative_cache_version = ABCMeta._abc_invalidation_counter
        elif subclass in cls._abc_negative_cache:
            return False
        ok = cls.__subclasshook__(subclass)
        if ok is not NotImplemented:
            if ok:
                cls._abc_cache.add(subclass)
            else:
                cls._abc_negative_cache.add(subclass)
            return ok
        if cls in subclass.__mro__:
            cls._abc_cache.add(subclass)
            return True
        for rcls in cls._abc_registry:
            if issubclass(subclass, rcls):
                cls._abc_cache.add(subclass)
                return True
        for scls in cls.__subclasses__():
            if issubclass(subclass, scls):
                cls._abc_cache.add(subclass)
                return True
        cls._abc_negative_cache.add(subclass)
        return False

    def _dump_registry(cls, file=None):
        print(f"Class: {cls.__module__}.{cls.__qualname__}", file=file)
        print(f"Inv. counter: {get_cache_token()}", file=file)
        for name in ("_abc_registry", "_abc_cache", "_abc_negative_cache",
                     "_abc_negative_cache_version"):
            print(f"{name}: {getattr(cls, name)!r}", file=file)

    def _abc_registry_clear(cls):
        cls._abc_registry.clear()

    def _abc_caches_clear(cls):
        cls._abc_cache.clear()
        cls._abc_negative_cache.clear()


def update_abstractmethods(cls):
    if not hasattr(cls, "__abstractmethods__"):
        return cls
    abstracts = set()
    for scls in cls.__bases__:
        for name in getattr(scls, "__abstractmethods__", ()):
            value = getattr(cls, name, None)
            if _is_abstract(value):
                abstracts.add(name)
    for name, value in cls.__dict__.items():
        if _is_abstract(value):
            abstracts.add(name)
    cls.__abstractmethods__ = frozenset(abstracts)
    return cls


class ABC(metaclass=ABCMeta):
    __slots__ = ()
