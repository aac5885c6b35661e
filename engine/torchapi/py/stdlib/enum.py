# enum for Kiln workloads: Enum, IntEnum, and str mixins (`class Task(str, Enum)`), whose
# members are str instances as in CPython. Kiln cannot subclass int, so IntEnum members compare,
# hash, index and compute as their int values instead. EnumType is a real metaclass, as
# CPython's: it makes the members when the class is created, and gives the class its
# iteration, len(), `in`, repr, Class(value) and Class["NAME"].


class auto:
    _counter = 0

    def __init__(self):
        auto._counter += 1
        self._order = auto._counter

    def __repr__(self):
        return "auto(_EnumDict._generate_next_value_)"


def _is_member_candidate(name, value):
    if name.startswith("__") and name.endswith("__"):
        return False
    if name.startswith("_"):
        return False
    if callable(value) and not isinstance(value, auto):
        return False
    return type(value).__name__ not in ("property", "staticmethod", "classmethod")


def _new_member(cls, value):
    # A member of a str mixin is made by str.__new__ and its value is str(value), as EnumType
    # does with the mixed-in data type.
    if issubclass(cls, str):
        args = value if isinstance(value, tuple) else (value,)
        member = str.__new__(cls, *args)
        object.__setattr__(member, "_value_", str(*args))
    else:
        member = object.__new__(cls)
        object.__setattr__(member, "_value_", value)
    return member


def _adopt_enum_methods(cls):
    # EnumType puts the enum's repr, str and format on a mixed-in class where the data type's
    # would win by the MRO, and makes Class(value) look members up.
    first_enum = cls.__bases__[-1]
    for name in ("__repr__", "__str__", "__format__"):
        if name not in cls.__dict__ and getattr(cls, name) is getattr(str, name):
            setattr(cls, name, getattr(first_enum, name))


def _make_members(cls):
    members = {}
    values = {}
    last = None
    for base in cls.__mro__[1:]:
        if base.__dict__.get("_member_map_"):
            raise TypeError(f"<enum {cls.__name__!r}> cannot extend {base!r}")
    for name, value in list(cls.__dict__.items()):
        if not _is_member_candidate(name, value):
            continue
        if isinstance(value, auto):
            value = cls._generate_next_value_(name, 1, len(members), [last] if members else [])
        if name in members:
            raise TypeError(f"Attempted to reuse key: {name!r}")
        member = _new_member(cls, value)
        if member._value_ in values:  # an alias
            member = values[member._value_]
        else:
            object.__setattr__(member, "_name_", name)
            values[member._value_] = member
        members[name] = member
        type.__setattr__(cls, name, member)
        last = value
    cls._member_map_ = members
    cls._value2member_map_ = values
    cls._member_names_ = [n for n, m in members.items() if m._name_ == n]
    if issubclass(cls, str):
        _adopt_enum_methods(cls)
    # Class(value) looks a member up, whatever __new__ a mixed-in type has (CPython's EnumType
    # does the same).
    type.__setattr__(cls, "__new__", Enum.__new__)


class EnumType(type):
    def __new__(metacls, cls, bases, classdict, **kwds):
        enum_class = super().__new__(metacls, cls, bases, classdict, **kwds)
        if bases:  # Enum itself has no members
            _make_members(enum_class)
        return enum_class

    def __call__(cls, value, names=None, *, module=None, qualname=None, type=None, start=1):
        if names is not None:
            raise NotImplementedError("Kiln's enum has no functional API (Enum('Name', names))")
        return cls.__new__(cls, value)

    def __getitem__(cls, name):
        return cls._member_map_[name]

    def __iter__(cls):
        return iter([cls._member_map_[n] for n in cls._member_names_])

    def __reversed__(cls):
        return iter([cls._member_map_[n] for n in reversed(cls._member_names_)])

    def __len__(cls):
        return len(cls._member_names_)

    def __bool__(cls):
        return True

    def __contains__(cls, member):
        if not isinstance(member, Enum):
            raise TypeError(
                f"unsupported operand type(s) for 'in': '{type(member).__qualname__}' and "
                f"'{type(cls).__qualname__}'")
        return isinstance(member, cls) and member._name_ in cls._member_map_

    def __repr__(cls):
        return f"<enum {cls.__name__!r}>"

    @property
    def __members__(cls):
        # CPython's is a read-only mappingproxy; it prints as this dict does with str().
        return dict(cls.__dict__.get("_member_map_", {}))

    def __setattr__(cls, name, value):
        if name in cls.__dict__.get("_member_map_", {}):
            raise AttributeError(f"cannot reassign member {name!r}")
        super().__setattr__(name, value)

    def __delattr__(cls, name):
        if name in cls.__dict__.get("_member_map_", {}):
            raise AttributeError(f"{cls.__name__!r} cannot delete member {name!r}.")
        super().__delattr__(name)


EnumMeta = EnumType


class Enum(metaclass=EnumType):
    def _generate_next_value_(name, start, count, last_values):
        for last in reversed(last_values):
            try:
                return last + 1
            except TypeError:
                pass
        return start

    def __new__(cls, value):
        members = cls.__dict__.get("_value2member_map_")
        if members is None:
            raise TypeError(f"{cls.__name__}() takes no arguments")
        if value in members:
            return members[value]
        # CPython 3.11's fallback: the class's _missing_ may find a member or raise its own.
        ve_exc = ValueError(f"{value!r} is not a valid {cls.__qualname__}")
        try:
            exc = None
            result = cls._missing_(value)
        except Exception as e:
            exc = e
            result = None
        if isinstance(result, cls):
            return result
        if result is None and exc is None:
            raise ve_exc
        if exc is None:
            exc = TypeError(f"error in {cls.__name__}._missing_: returned {result!r} instead of "
                            "None or a valid member")
        raise exc

    @classmethod
    def _missing_(cls, value):
        return None

    def __init__(self, *args):
        pass

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_

    def __setattr__(self, name, value):
        if name in ("name", "value"):
            raise AttributeError(f"<enum 'Enum'> cannot set attribute {name!r}")
        object.__setattr__(self, name, value)

    def __repr__(self):
        return f"<{type(self).__name__}.{self._name_}: {self._value_!r}>"

    def __str__(self):
        return f"{type(self).__name__}.{self._name_}"

    def __format__(self, spec):
        return format(str(self), spec)

    def __hash__(self):
        return hash(self._name_)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class IntEnum(Enum):
    # int's behaviour, delegated to the value.
    def __str__(self):
        return str(self._value_)

    def __format__(self, spec):
        return format(self._value_, spec)

    def __int__(self):
        return self._value_

    def __index__(self):
        return self._value_

    def __float__(self):
        return float(self._value_)

    def __hash__(self):
        return hash(self._value_)

    def __eq__(self, other):
        return self._value_ == (other._value_ if isinstance(other, Enum) else other)

    def __ne__(self, other):
        return not self == other

    def __lt__(self, other):
        return self._value_ < int(other)

    def __le__(self, other):
        return self._value_ <= int(other)

    def __gt__(self, other):
        return self._value_ > int(other)

    def __ge__(self, other):
        return self._value_ >= int(other)

    def __add__(self, other):
        return self._value_ + other

    def __radd__(self, other):
        return other + self._value_

    def __sub__(self, other):
        return self._value_ - other

    def __rsub__(self, other):
        return other - self._value_

    def __mul__(self, other):
        return self._value_ * other

    def __rmul__(self, other):
        return other * self._value_

    def __floordiv__(self, other):
        return self._value_ // other

    def __truediv__(self, other):
        return self._value_ / other

    def __mod__(self, other):
        return self._value_ % other

    def __neg__(self):
        return -self._value_

    def __bool__(self):
        return self._value_ != 0


def unique(enumeration):
    duplicates = [(n, m._name_) for n, m in enumeration._member_map_.items() if n != m._name_]
    if duplicates:
        details = ", ".join(f"{alias} -> {name}" for alias, name in duplicates)
        raise ValueError(f"duplicate values found in {enumeration!r}: {details}")
    return enumeration
