# types for Kiln workloads: the aliases that list[int] (PEP 585) and int | None (PEP 604)
# build, SimpleNamespace, and the names of the built-in types that scripts compare with.
FunctionType = type(lambda: None)
LambdaType = FunctionType
BuiltinFunctionType = type(len)
NoneType = type(None)
EllipsisType = type(...)


def _generator():
    yield


GeneratorType = type(_generator())


def _repr(obj):
    if isinstance(obj, type):
        if obj.__module__ == "builtins":
            return obj.__qualname__
        return obj.__module__ + "." + obj.__qualname__
    if obj is ...:
        return "..."
    return repr(obj)


class GenericAlias:
    def __init__(self, origin, args):
        self.__origin__ = origin
        self.__args__ = args if isinstance(args, tuple) else (args,)

    def __repr__(self):
        if self.__args__ == ():
            return _repr(self.__origin__) + "[()]"
        return _repr(self.__origin__) + "[" + ", ".join(_repr(a) for a in self.__args__) + "]"

    def __eq__(self, other):
        if not isinstance(other, GenericAlias):
            return NotImplemented
        return self.__origin__ == other.__origin__ and self.__args__ == other.__args__

    def __hash__(self):
        return hash((self.__origin__, self.__args__))

    def __call__(self, *args, **kwargs):
        return self.__origin__(*args, **kwargs)

    def __getitem__(self, args):
        return GenericAlias(self.__origin__, args)

    def __or__(self, other):
        return UnionType(self, other)

    def __ror__(self, other):
        return UnionType(other, self)


class UnionType:
    def __init__(self, left, right):
        args = []
        for side in (left, right):
            for a in side.__args__ if isinstance(side, UnionType) else (side,):
                a = type(None) if a is None else a
                if a not in args:
                    args.append(a)
        self.__args__ = tuple(args)

    def __repr__(self):
        return " | ".join("None" if a is type(None) else _repr(a) for a in self.__args__)

    def __eq__(self, other):
        if not isinstance(other, UnionType):
            return NotImplemented
        return all(a in other.__args__ for a in self.__args__) and len(self.__args__) == len(
            other.__args__)

    def __hash__(self):
        return hash(len(self.__args__))

    def __or__(self, other):
        return UnionType(self, other)

    def __ror__(self, other):
        return UnionType(other, self)


class SimpleNamespace:
    def __init__(self, mapping=None, /, **kwargs):
        if mapping is not None:
            kwargs = {**dict(mapping), **kwargs}
        for key, value in kwargs.items():
            setattr(self, key, value)

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"namespace({inner})"

    def __eq__(self, other):
        if isinstance(other, SimpleNamespace):
            return self.__dict__ == other.__dict__
        return NotImplemented


class _C:
    def _m(self):
        pass


MethodType = type(_C()._m)
