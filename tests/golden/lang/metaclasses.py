# Metaclasses and class keyword arguments as CPython 3.11 has them: `metaclass=`, keywords
# passed to the metaclass and to __init_subclass__, the most derived metaclass, __prepare__,
# type(C) being the metaclass, attribute lookup falling back to it, its __call__, special
# methods looked up on it, __instancecheck__/__subclasscheck__, and abc.ABCMeta.
import abc
import enum

import torch.nn as nn


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__ + ":", e)


# --- class keyword arguments and __init_subclass__
class Plugin:
    registry = {}

    def __init_subclass__(cls, key=None, **kw):
        super().__init_subclass__(**kw)
        cls.key = key
        Plugin.registry[key] = cls.__name__


class P1(Plugin, key="p1"):
    pass


options = {"key": "p2"}


class P2(Plugin, **options):
    pass


bases = (Plugin,)


class P3(*bases):
    pass


print(P1.key, P2.key, P3.key, sorted(Plugin.registry.items(), key=str))


def plain_with_keyword():
    class K(flavour=1):
        pass


def plugin_with_unknown():
    class K(Plugin, key="k", colour="red"):
        pass


def double_star_not_mapping():
    class K(**3):
        pass


def star_not_iterable():
    class K(*3):
        pass


attempt("plain keyword:", plain_with_keyword)
attempt("unknown keyword:", plugin_with_unknown)
attempt("** not a mapping:", double_star_not_mapping)
attempt("* not iterable:", star_not_iterable)


# --- a metaclass taking keywords in __new__ and __init__, with __prepare__
class Meta(type):
    created = []

    @classmethod
    def __prepare__(mcs, name, bases, **kw):
        print("prepare", name, [b.__name__ for b in bases], kw)
        return {"prepared": True}

    def __new__(mcs, name, bases, ns, **kw):
        ns["tag"] = kw.get("tag", "none")
        cls = super().__new__(mcs, name, bases, ns)
        Meta.created.append(name)
        return cls

    def __init__(cls, name, bases, ns, **kw):
        super().__init__(name, bases, ns)
        cls.init_keywords = sorted(kw)

    def describe(cls):
        return f"{cls.__name__} tagged {cls.tag}"

    @property
    def upper_name(cls):
        return cls.__name__.upper()


class Tagged(metaclass=Meta, tag="vit"):
    def method(self):
        return "instance method"


class Child(Tagged, tag="child"):
    pass


print(Tagged.tag, Child.tag, Tagged.prepared, Tagged.init_keywords, Meta.created)
print(type(Tagged) is Meta, type(Child).__name__, isinstance(Tagged, Meta), isinstance(Tagged, type))
print(Tagged.__class__ is Meta, type(Meta) is type, [c.__name__ for c in Meta.__mro__])
print(Tagged.describe(), Child.upper_name, Tagged().method(), hasattr(Tagged(), "describe"))
attempt("instance sees no metaclass method:", lambda: Tagged().describe())
print(Meta.describe(Child), issubclass(Meta, type), repr(Tagged), str(Child))


# --- the metaclass's __call__ decides what calling the class does
class Singleton(type):
    def __call__(cls, *args, **kwargs):
        if "_instance" not in cls.__dict__:
            cls._instance = super().__call__(*args, **kwargs)
        return cls._instance


class Config(metaclass=Singleton):
    def __init__(self, value):
        self.value = value


a = Config(1)
b = Config(2)
print(a is b, a.value, type(a).__name__)


# --- type(name, bases, ns) and type.__new__ build classes
Point = type("Point", (), {"x": 1, "norm": lambda self: self.x * 2})
print(Point.__name__, Point().norm(), Point.__module__, type(Point) is type)
Built = Meta("Built", (), {"z": 3})
print(Built.z, Built.tag, type(Built).__name__)
FromBase = type("FromBase", (Tagged,), {})
print(type(FromBase).__name__, FromBase.tag)
Direct = type.__new__(Meta, "Direct", (), {})
print(type(Direct).__name__, hasattr(Direct, "init_keywords"), type(5))
attempt("type.__new__ one argument:", lambda: type.__new__(type, 5))
attempt("type.__new__ name:", lambda: type.__new__(type, 1, (), {}))
attempt("type.__new__ bases:", lambda: type.__new__(type, "x", [], {}))
attempt("type.__new__ dict:", lambda: type.__new__(type, "x", (), []))
attempt("type.__new__ count:", lambda: type.__new__(type, "x", ()))
attempt("type.__new__ not a type:", lambda: type.__new__(1, "x", (), {}))
attempt("type.__new__ not a metatype:", lambda: type.__new__(int, "x", (), {}))
attempt("Meta with one argument:", lambda: Meta("x"))
attempt("type() arguments:", lambda: type("x", ()))
attempt("type.__init__ arguments:", lambda: type.__init__(Tagged, 1, 2))
attempt("type.__call__ on an int:", lambda: type.__call__(1))


# --- the most derived metaclass wins; unrelated ones conflict
class Other(type):
    pass


class Derived(Meta):
    pass


class FromOther(metaclass=Other):
    pass


class Mixed(Tagged, metaclass=Derived, tag="mixed"):
    pass


class Implicit(Mixed):  # no metaclass= : the bases' metaclass
    pass


print(type(Mixed).__name__, type(Implicit).__name__, Implicit.tag)


def conflict():
    class Both(Tagged, FromOther):
        pass


attempt("conflict:", conflict)
attempt("type() conflict:", lambda: type("Both", (Tagged, FromOther), {}))


# --- a plain function as metaclass
def function_meta(name, bases, ns, **kw):
    return f"{name}:{sorted(k for k in ns if not k.startswith('__'))}:{kw}"


class Made(metaclass=function_meta, flag=True):
    x = 1


print(Made)


# --- special methods of the metaclass act on the class
class Registry(type):
    def __len__(cls):
        return len(cls.items)

    def __iter__(cls):
        return iter(cls.items)

    def __getitem__(cls, i):
        return cls.items[i] * 10

    def __contains__(cls, x):
        return x in cls.items

    def __repr__(cls):
        return f"<registry {cls.__name__} of {len(cls)}>"

    def __bool__(cls):
        return bool(cls.items)

    def __or__(cls, other):
        return f"{cls.__name__}|{other.__name__}"

    def __add__(cls, n):
        return cls.items + [n]

    def __getattr__(cls, name):
        return f"missing {name}"

    def __setattr__(cls, name, value):
        if name == "frozen":
            raise AttributeError(f"{cls.__name__}.frozen is read-only")
        super().__setattr__(name, value)


class Numbers(metaclass=Registry):
    items = [1, 2, 3]

    def __len__(self):  # the instances' len, not the class's
        return 99


class Empty(metaclass=Registry):
    items = []


print(len(Numbers), list(Numbers), Numbers[1], 2 in Numbers, 5 in Numbers, repr(Numbers))
print(Numbers, [Numbers], f"{Numbers}", bool(Numbers), bool(Empty), "yes" if Empty else "no")
print(Numbers | Empty, Numbers + 4, Numbers.anything, len(Numbers()), sorted(Numbers))
Numbers.extra = 5
print(Numbers.extra, "extra" in vars(Numbers))
attempt("metaclass __setattr__:", lambda: setattr(Numbers, "frozen", 1))
attempt("len of a plain class:", lambda: len(Plugin))
attempt("plain class subscript:", lambda: Plugin[0])


# --- __instancecheck__ and __subclasscheck__ of the metaclass
class DuckMeta(type):
    def __instancecheck__(cls, obj):
        return hasattr(obj, "quack")

    def __subclasscheck__(cls, sub):
        return hasattr(sub, "quack")


class Duck(metaclass=DuckMeta):
    pass


class Robot:
    def quack(self):
        return "beep"


print(isinstance(Robot(), Duck), isinstance(3, Duck), issubclass(Robot, Duck), issubclass(int, Duck))
print(isinstance(Robot(), (int, Duck)), issubclass(Robot, (str, Duck)), isinstance(Duck(), Duck))
print(type.__instancecheck__(Duck, Robot()), type.__subclasscheck__(Duck, Robot))


# --- super().__new__ in a plain class hierarchy passes cls once (__new__ is static)
class Base:
    def __new__(cls, *args):
        print("Base.__new__", cls.__name__, args)
        return super().__new__(cls)


class Sub(Base):
    def __new__(cls, *args):
        print("Sub.__new__", cls.__name__, args)
        return super().__new__(cls, *args)

    def __init__(self, *args):
        self.args = args


print(Sub(1, 2).args, Sub.__new__.__name__)


# --- __subclasses__
class Root:
    pass


class Leaf1(Root):
    pass


class Leaf2(Root):
    pass


print([c.__name__ for c in Root.__subclasses__()], Leaf1.__subclasses__())


# --- abc.ABCMeta is a real metaclass
class Shape(abc.ABC):
    @abc.abstractmethod
    def area(self):
        ...

    @abc.abstractmethod
    def perimeter(self):
        ...

    @property
    @abc.abstractmethod
    def sides(self):
        ...


class Square(Shape):
    def area(self):
        return 4

    def perimeter(self):
        return 8


class Box(Square):
    sides = 4


class Backbone(metaclass=abc.ABCMeta):
    @abc.abstractmethod
    def forward(self, x):
        ...

    @classmethod
    @abc.abstractmethod
    def build(cls):
        ...


print(type(abc.ABC) is abc.ABCMeta, type(Shape).__name__, isinstance(Shape, abc.ABCMeta))
print(type(Shape.__abstractmethods__).__name__, sorted(Shape.__abstractmethods__),
      sorted(Square.__abstractmethods__), len(Box.__abstractmethods__), Box().area())
print(type(Backbone).__name__, sorted(Backbone.__abstractmethods__), abc.ABCMeta.__mro__)
attempt("Shape():", Shape)
attempt("Square():", Square)
attempt("Backbone():", Backbone)
attempt("object.__new__:", lambda: object.__new__(Square))
attempt("plain class __abstractmethods__:", lambda: Plugin.__abstractmethods__)


class Model(nn.Module, abc.ABC):
    @abc.abstractmethod
    def forward_features(self, x):
        ...


class Net(Model):
    def forward_features(self, x):
        return x + 1


class Virtual:
    pass


Model.register(Virtual)
print(type(Model).__name__, type(Net).__name__, Net().forward_features(1), isinstance(Net(), nn.Module))
print(issubclass(Virtual, Model), isinstance(Virtual(), Model), issubclass(Virtual, abc.ABC))
print(isinstance(Net(), Model), isinstance(Net(), abc.ABC), issubclass(Net, Model))
print(isinstance(3, Model), issubclass(int, Model), Virtual.__mro__[1:])
attempt("Model():", Model)


@Shape.register
class Triangle:
    pass


print(Triangle.__name__, issubclass(Triangle, Shape), isinstance(Triangle(), Shape))
print(issubclass(Triangle, Square), isinstance(abc.get_cache_token(), int))
attempt("register a non-class:", lambda: Shape.register(3))
attempt("issubclass non-class:", lambda: issubclass(3, Shape))


class Sized(abc.ABC):
    @classmethod
    def __subclasshook__(cls, sub):
        if cls is Sized:
            return hasattr(sub, "__len__")
        return NotImplemented


class Bag:
    def __len__(self):
        return 0


print(issubclass(Bag, Sized), isinstance(Bag(), Sized), isinstance(3, Sized), issubclass(Root, Sized))


# --- Enum's metaclass
class Color(enum.Enum):
    RED = 1
    GREEN = 2


print(type(Color) is enum.EnumMeta, type(Color).__name__, isinstance(Color, enum.EnumType))
print(len(Color), list(Color), Color["GREEN"], Color(1), Color.RED in Color, repr(Color))
attempt("reassign member:", lambda: setattr(Color, "RED", 3))
attempt("delete member:", lambda: delattr(Color, "RED"))


def extend_enum():
    class More(Color):
        BLUE = 3


attempt("extend:", extend_enum)
print(list(reversed(Color)), Color.__members__)


class ExplicitEnum(str, enum.Enum):  # transformers' pattern: _missing_ words the error
    @classmethod
    def _missing_(cls, value):
        raise ValueError(f"{value} is not a valid {cls.__name__}, please select one of "
                         f"{list(cls._value2member_map_.keys())}")


class Padding(ExplicitEnum):
    LONGEST = "longest"
    MAX = "max_length"


print(Padding("longest"), repr(Padding.MAX), type(Padding).__name__)
attempt("_missing_:", lambda: Padding("x"))
