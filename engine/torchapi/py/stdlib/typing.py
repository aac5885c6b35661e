# typing for Kiln workloads. Every common name imports; subscripting builds an alias object that
# prints as CPython 3.11's and carries __origin__/__args__, so annotations evaluate harmlessly.
# Kiln has no metaclasses, so aliases are not usable with isinstance() (CPython rejects
# subscripted ones too) and Generic/Protocol are plain base classes.

import collections as _collections

TYPE_CHECKING = False


def _type_repr(obj):
    if isinstance(obj, type):
        if obj.__module__ == "builtins":
            return obj.__qualname__
        return obj.__module__ + "." + obj.__qualname__
    if obj is ...:
        return "..."
    if obj is None or obj is type(None):
        return "NoneType" if obj is type(None) else "None"
    if callable(obj) and hasattr(obj, "__qualname__") and not hasattr(obj, "__origin__"):
        return obj.__module__ + "." + obj.__qualname__
    return repr(obj)


def _as_tuple(params):
    return params if isinstance(params, tuple) else (params,)


class ForwardRef:
    def __init__(self, arg):
        if not isinstance(arg, str):
            raise TypeError(f"Forward reference must be a string -- got {arg!r}")
        self.__forward_arg__ = arg

    def __repr__(self):
        return f"ForwardRef({self.__forward_arg__!r})"

    def __eq__(self, other):
        return isinstance(other, ForwardRef) and self.__forward_arg__ == other.__forward_arg__

    def __hash__(self):
        return hash(self.__forward_arg__)


def _convert(arg):
    if arg is None:
        return type(None)
    if isinstance(arg, str):
        return ForwardRef(arg)
    return arg


def _not_instantiable(name, origin):
    if origin is _AbstractCollection:
        raise TypeError(f"Type {name} cannot be instantiated")
    raise TypeError(f"Type {name} cannot be instantiated; use {origin.__name__}() instead")


class _GenericAlias:
    def __init__(self, origin, args, name=None):
        self.__origin__ = origin
        self.__args__ = args
        self._name = name

    def __repr__(self):
        if self._name == "Callable" and len(self.__args__) == 2 and self.__args__[0] is not ...:
            params = ", ".join(_type_repr(a) for a in self.__args__[0])
            return f"typing.Callable[[{params}], {_type_repr(self.__args__[1])}]"
        head = "typing." + self._name if self._name else _type_repr(self.__origin__)
        if self.__args__ == ():
            return head + "[()]"
        return head + "[" + ", ".join(_type_repr(a) for a in self.__args__) + "]"

    def __eq__(self, other):
        if not isinstance(other, _GenericAlias):
            return False
        return self.__origin__ == other.__origin__ and self.__args__ == other.__args__

    def __hash__(self):
        return hash((self.__origin__, self.__args__))

    def __getitem__(self, params):
        return _GenericAlias(self.__origin__, _as_tuple(params), self._name)

    def __call__(self, *args, **kwargs):
        if self._name is not None:
            _not_instantiable(self._name, self.__origin__)
        return self.__origin__(*args, **kwargs)

    def __or__(self, other):
        return Union[self, other]

    def __ror__(self, other):
        return Union[other, self]


class _UnionAlias(_GenericAlias):
    def __repr__(self):
        args = self.__args__
        if len(args) == 2 and args[1] is type(None):
            return f"typing.Optional[{_type_repr(args[0])}]"
        if len(args) == 2 and args[0] is type(None):
            return f"typing.Optional[{_type_repr(args[1])}]"
        return "typing.Union[" + ", ".join(_type_repr(a) for a in args) + "]"

    def __eq__(self, other):
        if not isinstance(other, _UnionAlias):
            return False
        return all(a in other.__args__ for a in self.__args__) and all(
            a in self.__args__ for a in other.__args__)

    def __hash__(self):
        return hash(len(self.__args__))


def _union(params):
    flat = []
    for p in _as_tuple(params):
        p = _convert(p)
        members = p.__args__ if isinstance(p, _UnionAlias) else (p,)
        for m in members:
            if m not in flat:
                flat.append(m)
    if len(flat) == 1:
        return flat[0]
    return _UnionAlias(Union, tuple(flat), "Union")


class _SpecialForm:
    def __init__(self, name, getitem=None):
        self._name = name
        self._getitem = getitem

    def __repr__(self):
        return "typing." + self._name

    def __getitem__(self, params):
        if self._getitem is None:
            if self._name == "Any":  # a class in CPython 3.11
                raise TypeError("type 'Any' is not subscriptable")
            raise TypeError(f"{self!r} is not subscriptable")
        return self._getitem(self, params)

    def __call__(self, *args, **kwargs):
        raise TypeError(f"Cannot instantiate {self!r}")

    def __or__(self, other):
        return Union[self, other]

    def __ror__(self, other):
        return Union[other, self]


def _plain(form, params):
    return _GenericAlias(form, tuple(_convert(p) for p in _as_tuple(params)), form._name)


def _optional(form, param):
    return _union((param, None))


def _literal(form, params):
    return _GenericAlias(form, _as_tuple(params), "Literal")


def _annotated(form, params):
    params = _as_tuple(params)
    if len(params) < 2:
        raise TypeError("Annotated[...] should be used with at least two arguments "
                        "(a type and an annotation).")
    alias = _GenericAlias(params[0], (params[0],), "Annotated")
    alias.__metadata__ = params[1:]
    return alias


def _annotated_repr(alias):
    return "typing.Annotated[" + ", ".join([_type_repr(alias.__origin__)] + [
        repr(m) for m in alias.__metadata__]) + "]"


Any = _SpecialForm("Any")
NoReturn = _SpecialForm("NoReturn")
Never = _SpecialForm("Never")
Self = _SpecialForm("Self")
LiteralString = _SpecialForm("LiteralString")
TypeAlias = _SpecialForm("TypeAlias")
Union = _SpecialForm("Union", lambda form, params: _union(params))
Optional = _SpecialForm("Optional", _optional)
ClassVar = _SpecialForm("ClassVar", _plain)
Final = _SpecialForm("Final", _plain)
Literal = _SpecialForm("Literal", _literal)
TypeGuard = _SpecialForm("TypeGuard", _plain)
Concatenate = _SpecialForm("Concatenate", _plain)
Required = _SpecialForm("Required", _plain)
NotRequired = _SpecialForm("NotRequired", _plain)
Unpack = _SpecialForm("Unpack", _plain)
Annotated = _SpecialForm("Annotated", _annotated)


class _Alias:
    # List, Dict, Callable, ...: unsubscripted they print as typing.List; subscripted they
    # become a _GenericAlias over the runtime class.
    def __init__(self, origin, name):
        self.__origin__ = origin
        self._name = name

    def __repr__(self):
        return "typing." + self._name

    def __getitem__(self, params):
        if self._name == "Callable" and isinstance(params, tuple) and len(params) == 2:
            args, result = params
            if args is not ...:
                args = tuple(_convert(a) for a in args)
            return _GenericAlias(self.__origin__, (args, _convert(result)), "Callable")
        return _GenericAlias(self.__origin__, tuple(_convert(p) for p in _as_tuple(params)),
                             self._name)

    def __call__(self, *args, **kwargs):
        _not_instantiable(self._name, self.__origin__)

    def __or__(self, other):
        return Union[self, other]

    def __ror__(self, other):
        return Union[other, self]


class _AbstractCollection:
    # Stands in for the collections.abc classes that Kiln does not have.
    pass


def _abstract(name):
    return _Alias(_AbstractCollection, name)


List = _Alias(list, "List")
Dict = _Alias(dict, "Dict")
Tuple = _Alias(tuple, "Tuple")
Type = _Alias(type, "Type")
Set = _abstract("Set")
FrozenSet = _abstract("FrozenSet")
Callable = _abstract("Callable")
DefaultDict = _abstract("DefaultDict")
Deque = _abstract("Deque")
Counter = _abstract("Counter")
ChainMap = _abstract("ChainMap")
OrderedDict = _abstract("OrderedDict")
Iterable = _abstract("Iterable")
Iterator = _abstract("Iterator")
Generator = _abstract("Generator")
Sequence = _abstract("Sequence")
MutableSequence = _abstract("MutableSequence")
Mapping = _abstract("Mapping")
MutableMapping = _abstract("MutableMapping")
Collection = _abstract("Collection")
Container = _abstract("Container")
Hashable = _abstract("Hashable")
Sized = _abstract("Sized")
Reversible = _abstract("Reversible")
AbstractSet = _abstract("AbstractSet")
MutableSet = _abstract("MutableSet")
KeysView = _abstract("KeysView")
ValuesView = _abstract("ValuesView")
ItemsView = _abstract("ItemsView")
Awaitable = _abstract("Awaitable")
Coroutine = _abstract("Coroutine")
AsyncIterable = _abstract("AsyncIterable")
AsyncIterator = _abstract("AsyncIterator")
AsyncGenerator = _abstract("AsyncGenerator")
ContextManager = _abstract("ContextManager")
AsyncContextManager = _abstract("AsyncContextManager")
Pattern = _abstract("Pattern")
Match = _abstract("Match")
IO = _abstract("IO")
TextIO = _abstract("TextIO")
BinaryIO = _abstract("BinaryIO")
SupportsInt = _abstract("SupportsInt")
SupportsFloat = _abstract("SupportsFloat")
SupportsIndex = _abstract("SupportsIndex")
SupportsAbs = _abstract("SupportsAbs")
SupportsRound = _abstract("SupportsRound")
SupportsBytes = _abstract("SupportsBytes")
SupportsComplex = _abstract("SupportsComplex")
Text = str


class TypeVar:
    def __init__(self, name, *constraints, bound=None, covariant=False, contravariant=False):
        if covariant and contravariant:
            raise ValueError("Bivariant types are not supported.")
        if len(constraints) == 1:
            raise TypeError("A single constraint is not allowed")
        self.__name__ = name
        self.__constraints__ = constraints
        self.__bound__ = _convert(bound) if bound is not None else None
        self.__covariant__ = covariant
        self.__contravariant__ = contravariant

    def __repr__(self):
        prefix = "+" if self.__covariant__ else "-" if self.__contravariant__ else "~"
        return prefix + self.__name__

    def __or__(self, other):
        return Union[self, other]

    def __ror__(self, other):
        return Union[other, self]


class ParamSpec(TypeVar):
    def __init__(self, name, *, bound=None, covariant=False, contravariant=False):
        TypeVar.__init__(self, name, bound=bound, covariant=covariant,
                         contravariant=contravariant)
        self.args = _SpecialForm(name + ".args")
        self.kwargs = _SpecialForm(name + ".kwargs")


class TypeVarTuple:
    def __init__(self, name):
        self.__name__ = name

    def __repr__(self):
        return self.__name__


AnyStr = TypeVar("AnyStr")  # CPython constrains it to (bytes, str); Kiln has no bytes


class Generic:
    # Generic[T] is Generic itself: subclasses list it as their base, and Class[int] builds an
    # alias as CPython's does.
    def __class_getitem__(cls, params):
        if cls is Generic or cls is Protocol:
            return cls
        return _GenericAlias(cls, _as_tuple(params))


class Protocol(Generic):
    pass


def cast(typ, val):
    return val


def assert_type(val, typ):
    return val


def reveal_type(obj):
    import sys
    sys.stderr.write(f"Runtime type is {type(obj).__name__!r}\n")
    return obj


def _overload_dummy(*args, **kwds):
    raise NotImplementedError(
        "You should not call an overloaded function. A series of @overload-decorated functions "
        "outside a stub module should always be followed by an implementation that is not "
        "@overload-ed.")


def overload(func):
    return _overload_dummy


def final(f):
    return f


def no_type_check(arg):
    return arg


def runtime_checkable(cls):
    return cls


def type_check_only(func):
    return func


def NewType(name, tp):
    def new_type(x):
        return x
    new_type.__name__ = name
    new_type.__qualname__ = name
    new_type.__supertype__ = tp
    return new_type


def get_origin(tp):
    if isinstance(tp, _GenericAlias):
        if tp._name == "Annotated":
            return Annotated
        return tp.__origin__
    if tp is Generic:
        return Generic
    return None


def get_args(tp):
    if isinstance(tp, _GenericAlias):
        if tp._name == "Annotated":
            return (tp.__origin__,) + tp.__metadata__
        args = tp.__args__
        if tp._name == "Callable" and len(args) == 2 and args[0] is not ...:
            return (list(args[0]), args[1])
        return args
    return ()


def get_type_hints(obj, globalns=None, localns=None, include_extras=False):
    hints = {}
    if isinstance(obj, type):
        for base in reversed(obj.__mro__):
            hints.update(base.__dict__.get("__annotations__", {}))
    else:
        hints.update(getattr(obj, "__annotations__", {}))
    for name, value in hints.items():
        if value is None:
            hints[name] = type(None)
    return hints


class NamedTuple:
    # class P(NamedTuple): x: int. Kiln cannot subclass tuple, so the class gets tuple's
    # behaviour (iteration, indexing, len, ==, hash) as methods; isinstance(p, tuple) is False.
    def __init_subclass__(cls, **kwargs):
        annotations = cls.__dict__.get("__annotations__", {})
        defaults = {}
        for name in annotations:
            if name in cls.__dict__:
                defaults[name] = cls.__dict__[name]
        _collections._namedtuple_methods(cls, list(annotations), defaults)


class TypedDict:
    # class Movie(TypedDict): ... Instances are dicts in CPython; Kiln has no __new__ that
    # returns another type, so calling the class is refused with an explanation.
    def __init__(self, *args, **kwargs):
        raise TypeError("TypedDict classes cannot be instantiated in Kiln workloads; "
                        "use a plain dict")
