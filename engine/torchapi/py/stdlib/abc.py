# abc for Kiln workloads: ABC and abstractmethod, with CPython 3.11's TypeError when a class
# that still has abstract methods is instantiated. Kiln has no metaclasses, so ABCMeta is a
# plain class (metaclass=ABCMeta is a parse error in Kiln) and the check runs in ABC.__new__;
# __abstractmethods__ is a sorted tuple of names (Kiln has no frozenset); register() records
# nothing because isinstance() does not consult it.


def abstractmethod(funcobj):
    funcobj.__isabstractmethod__ = True
    return funcobj


def _is_abstract(value):
    return getattr(value, "__isabstractmethod__", False) is True


class ABCMeta:
    pass


class ABC:
    def __init_subclass__(cls, **kwargs):
        abstract = []
        for name, value in cls.__dict__.items():
            if _is_abstract(value):
                abstract.append(name)
        for base in cls.__mro__[1:]:
            for name in base.__dict__.get("__abstractmethods__", ()):
                if _is_abstract(getattr(cls, name, None)) and name not in abstract:
                    abstract.append(name)
        cls.__abstractmethods__ = tuple(sorted(abstract))

    def __new__(cls, *args, **kwargs):
        missing = cls.__dict__.get("__abstractmethods__", ())
        if missing:
            plural = "s" if len(missing) > 1 else ""
            raise TypeError(f"Can't instantiate abstract class {cls.__name__} with abstract "
                            f"method{plural} {', '.join(missing)}")
        return object.__new__(cls)

    @classmethod
    def register(cls, subclass):
        return subclass


def get_cache_token():
    return 0
