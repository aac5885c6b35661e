# dataclasses for Kiln workloads, with CPython 3.11's behaviour and messages. CPython generates
# __init__ with exec(); Kiln binds the arguments itself against the field list, raising the
# TypeErrors that the generated signature would.
import copy


class _MISSING_TYPE:
    pass


MISSING = _MISSING_TYPE()


class FrozenInstanceError(AttributeError):
    pass


class InitVar:
    def __init__(self, type):
        self.type = type

    def __class_getitem__(cls, type):
        return InitVar(type)

    def __repr__(self):
        name = self.type.__name__ if isinstance(self.type, type) else repr(self.type)
        return f"dataclasses.InitVar[{name}]"


class KW_ONLY:
    pass


class Field:
    def __init__(self, default, default_factory, init, repr, hash, compare, metadata, kw_only):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.metadata = {} if metadata is None else metadata
        self.kw_only = kw_only
        self._field_type = "_FIELD"

    def __repr__(self):
        return (f"Field(name={self.name!r},type={self.type!r},default={self.default!r},"
                f"default_factory={self.default_factory!r},init={self.init!r},"
                f"repr={self.repr!r},hash={self.hash!r},compare={self.compare!r},"
                f"metadata={self.metadata!r},kw_only={self.kw_only!r},"
                f"_field_type={self._field_type})")


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None,
          compare=True, metadata=None, kw_only=MISSING):
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


def _is_classvar(annotation):
    if isinstance(annotation, str):
        return annotation.startswith("ClassVar") or annotation.startswith("typing.ClassVar")
    text = repr(annotation)
    return text == "typing.ClassVar" or text.startswith("typing.ClassVar[")


def _is_initvar(annotation):
    if isinstance(annotation, str):
        return annotation.startswith("InitVar") or annotation.startswith("dataclasses.InitVar")
    return annotation is InitVar or isinstance(annotation, InitVar)


def _own_fields(cls, kw_only):
    fields = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if annotation is KW_ONLY:
            kw_only = True
            continue
        default = cls.__dict__.get(name, MISSING)
        f = default if isinstance(default, Field) else field(default=default)
        f.name = name
        f.type = annotation
        if _is_classvar(annotation):
            f._field_type = "_FIELD_CLASSVAR"
        elif _is_initvar(annotation):
            f._field_type = "_FIELD_INITVAR"
        if f._field_type != "_FIELD" and f.default_factory is not MISSING:
            raise TypeError(f"field {name} cannot have a default factory")
        if f.kw_only is MISSING:
            f.kw_only = kw_only
        if f._field_type == "_FIELD" and type(f.default) in (list, dict):
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not "
                             "allowed: use default_factory")
        fields.append(f)
    return fields


def _collect(cls, kw_only):
    all_fields = {}
    for base in reversed(cls.__mro__[1:]):
        for f in base.__dict__.get("__dataclass_fields__", {}).values():
            all_fields[f.name] = f
    for f in _own_fields(cls, kw_only):
        all_fields[f.name] = f
        # The class attribute is the default itself (or nothing), as CPython leaves it.
        if isinstance(cls.__dict__.get(f.name), Field):
            if f.default is MISSING:
                delattr(cls, f.name)
            else:
                setattr(cls, f.name, f.default)
    return all_fields


def _init_fields(all_fields):
    return [f for f in all_fields.values() if f._field_type != "_FIELD_CLASSVAR" and f.init]


def _check_default_order(init_fields):
    seen_default = False
    for f in init_fields:
        if f.kw_only:
            continue
        has_default = f.default is not MISSING or f.default_factory is not MISSING
        if has_default:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")


def _missing_message(qualname, names, kind):
    quoted = [repr(n) for n in names]
    if len(quoted) == 1:
        listed = quoted[0]
    elif len(quoted) == 2:
        listed = quoted[0] + " and " + quoted[1]
    else:
        listed = ", ".join(quoted[:-1]) + ", and " + quoted[-1]
    plural = "s" if len(names) > 1 else ""
    return f"{qualname}() missing {len(names)} required {kind} argument{plural}: {listed}"


def _bind(qualname, init_fields, args, kwargs):
    positional = [f for f in init_fields if not f.kw_only]
    if len(args) > len(positional):
        required = len([f for f in positional
                        if f.default is MISSING and f.default_factory is MISSING])
        if required == len(positional):
            takes = f"takes {len(positional) + 1}"
        else:
            takes = f"takes from {required + 1} to {len(positional) + 1}"
        were = "was" if len(args) + 1 == 1 else "were"
        raise TypeError(f"{qualname}() {takes} positional argument"
                        f"{'' if len(positional) == 0 else 's'} but {len(args) + 1} {were} given")
    values = {}
    for f, value in zip(positional, args):
        values[f.name] = value
    names = [f.name for f in init_fields]
    for key, value in kwargs.items():
        if key not in names:
            raise TypeError(f"{qualname}() got an unexpected keyword argument '{key}'")
        if key in values:
            raise TypeError(f"{qualname}() got multiple values for argument '{key}'")
        values[key] = value
    for kind, group in (("positional", positional),
                        ("keyword-only", [f for f in init_fields if f.kw_only])):
        missing = [f.name for f in group if f.name not in values and f.default is MISSING and
                   f.default_factory is MISSING]
        if missing:
            raise TypeError(_missing_message(qualname, missing, kind))
    return values


def _make_init(cls, all_fields, frozen):
    init_fields = _init_fields(all_fields)
    _check_default_order(init_fields)
    qualname = cls.__qualname__ + ".__init__"
    has_post_init = hasattr(cls, "__post_init__")

    def __init__(self, *args, **kwargs):
        values = _bind(qualname, init_fields, args, kwargs)
        initvars = []
        for f in all_fields.values():
            if f._field_type == "_FIELD_CLASSVAR":
                continue
            if f.name in values:
                value = values[f.name]
            elif f.default_factory is not MISSING:
                value = f.default_factory()
            elif f.default is not MISSING:
                value = f.default
            else:
                continue
            if f._field_type == "_FIELD_INITVAR":
                initvars.append(value)
            elif frozen:
                object.__setattr__(self, f.name, value)
            else:
                setattr(self, f.name, value)
        if has_post_init:
            self.__post_init__(*initvars)

    return __init__


def _field_tuple(obj, fields):
    return tuple(getattr(obj, f.name) for f in fields)


def _add_methods(cls, all_fields, repr_, eq, order, frozen, unsafe_hash):
    data_fields = [f for f in all_fields.values() if f._field_type == "_FIELD"]
    compared = [f for f in data_fields if f.compare]
    own = cls.__dict__
    if repr_ and "__repr__" not in own:
        def __repr__(self):
            inner = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in data_fields
                              if f.repr)
            return f"{type(self).__qualname__}({inner})"
        cls.__repr__ = __repr__
    if eq and "__eq__" not in own:
        def __eq__(self, other):
            if other.__class__ is self.__class__:
                return _field_tuple(self, compared) == _field_tuple(other, compared)
            return NotImplemented
        cls.__eq__ = __eq__
    if order:
        _add_order(cls, compared)
    if frozen:
        _add_frozen(cls, data_fields)
    hashed = [f for f in data_fields if (f.compare if f.hash is None else f.hash)]

    def __hash__(self):
        return hash(_field_tuple(self, hashed))

    if unsafe_hash:
        if "__hash__" in own:
            raise TypeError(f"Cannot overwrite attribute __hash__ in class {cls.__name__}")
        cls.__hash__ = __hash__
    elif eq and "__hash__" not in own:
        cls.__hash__ = __hash__ if frozen else None


def _add_order(cls, compared):
    def compare(op):
        def method(self, other):
            if other.__class__ is self.__class__:
                return op(_field_tuple(self, compared), _field_tuple(other, compared))
            return NotImplemented
        return method

    for name, op in (("__lt__", lambda a, b: a < b), ("__le__", lambda a, b: a <= b),
                     ("__gt__", lambda a, b: a > b), ("__ge__", lambda a, b: a >= b)):
        if name in cls.__dict__:
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}. "
                            "Consider using functools.total_ordering")
        setattr(cls, name, compare(op))


def _add_frozen(cls, data_fields):
    names = [f.name for f in data_fields]

    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    cls.__setattr__ = __setattr__
    cls.__delattr__ = __delattr__


def _process_class(cls, init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only):
    if order and not eq:
        raise ValueError("eq must be true if order is true")
    all_fields = _collect(cls, kw_only)
    cls.__dataclass_fields__ = all_fields
    cls.__dataclass_params__ = (init, repr, eq, order, unsafe_hash, frozen)
    if init and "__init__" not in cls.__dict__:
        cls.__init__ = _make_init(cls, all_fields, frozen)
    _add_methods(cls, all_fields, repr, eq, order, frozen, unsafe_hash)
    if match_args and "__match_args__" not in cls.__dict__:
        cls.__match_args__ = tuple(f.name for f in _init_fields(all_fields) if not f.kw_only)
    return cls


def dataclass(cls=None, /, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False,
              frozen=False, match_args=True, kw_only=False, slots=False, weakref_slot=False):
    def wrap(cls):
        return _process_class(cls, init, repr, eq, order, unsafe_hash, frozen, match_args,
                              kw_only)

    if cls is None:
        return wrap
    return wrap(cls)


def is_dataclass(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, "__dataclass_fields__")


def fields(class_or_instance):
    if not is_dataclass(class_or_instance):
        raise TypeError("must be called with a dataclass type or instance")
    return tuple(f for f in class_or_instance.__dataclass_fields__.values()
                 if f._field_type == "_FIELD")


def _convert(obj, factory, as_tuple):
    if is_dataclass(obj) and not isinstance(obj, type):
        values = [(f.name, _convert(getattr(obj, f.name), factory, as_tuple)) for f in fields(obj)]
        return tuple(v for _, v in values) if as_tuple else factory(values)
    if isinstance(obj, (list, tuple)):
        return type(obj)([_convert(v, factory, as_tuple) for v in obj])
    if isinstance(obj, dict):
        return type(obj)((_convert(k, factory, as_tuple), _convert(v, factory, as_tuple))
                         for k, v in obj.items())
    return copy.deepcopy(obj)


def asdict(obj, *, dict_factory=dict):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("asdict() should be called on dataclass instances")
    return _convert(obj, dict_factory, False)


def astuple(obj, *, tuple_factory=tuple):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("astuple() should be called on dataclass instances")
    return tuple_factory(_convert(obj, None, True))


def replace(obj, /, **changes):
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("replace() should be called on dataclass instances")
    for f in obj.__dataclass_fields__.values():
        if f._field_type == "_FIELD_CLASSVAR":
            continue
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be "
                                 "specified with replace()")
            continue
        if f.name not in changes:
            if f._field_type == "_FIELD_INITVAR" and f.default is MISSING:
                raise ValueError(f"InitVar {f.name!r} must be specified with replace()")
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)
