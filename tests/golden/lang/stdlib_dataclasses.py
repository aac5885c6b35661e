# dataclasses: generated __init__/__repr__/__eq__/__hash__ with CPython's output and errors,
# field(default_factory=...), frozen, __post_init__, order, asdict/astuple/replace/fields.
from dataclasses import (FrozenInstanceError, InitVar, asdict, astuple, dataclass, field,
                         fields, is_dataclass, replace)
from typing import ClassVar, List, Optional


@dataclass
class GPTConfig:
    block_size: int = 1024
    vocab_size: int = 50304
    n_layer: int = 12
    dropout: float = 0.0
    bias: bool = True
    name: Optional[str] = None


c = GPTConfig(n_layer=6, name="small")
print(c)
print(c == GPTConfig(n_layer=6, name="small"), c == GPTConfig(), c != GPTConfig())
print(GPTConfig.block_size, c.block_size, is_dataclass(c), is_dataclass(GPTConfig))
print([f.name for f in fields(c)], [f.type for f in fields(GPTConfig)][:3])
print(asdict(c))
print(astuple(GPTConfig()))
print(replace(c, dropout=0.1))
try:
    hash(c)
except TypeError as e:
    print("TypeError:", e)


@dataclass
class Batch:
    ids: List[int]
    tags: list = field(default_factory=list)
    weight: float = field(default=1.0, repr=False)
    count: ClassVar[int] = 0
    total: int = field(init=False, default=0)

    def __post_init__(self):
        Batch.count += 1
        self.total = sum(self.ids)


b1 = Batch([1, 2, 3])
b2 = Batch([4], ["x"], weight=2.0)
b1.tags.append("a")
print(b1, b2, b2.weight, Batch.count, b1.tags is not b2.tags)
print([f.name for f in fields(Batch)])
for args, kwargs in (((), {}), (([1], [], 1.0, 4), {}), (([1],), {"bogus": 1}),
                     (([1],), {"ids": [2]})):
    try:
        Batch(*args, **kwargs)
    except TypeError as e:
        print("TypeError:", e)


@dataclass(frozen=True)
class Point:
    x: float
    y: float = 0.0


p = Point(1.5)
print(p, hash(p) == hash(Point(1.5, 0.0)), {p: "origin-ish"}[Point(1.5)])
try:
    p.x = 3
except FrozenInstanceError as e:
    print(type(e).__name__, e, isinstance(e, AttributeError))
try:
    del p.y
except AttributeError as e:
    print(type(e).__name__, e)


@dataclass(order=True)
class Version:
    major: int
    minor: int = 0


print(sorted([Version(2), Version(1, 5), Version(1)]), Version(1) < Version(1, 1))
try:
    Version(1) < 3
except TypeError as e:
    print("TypeError:", e)


@dataclass
class Child(GPTConfig):
    extra: int = 5


print(Child(extra=7))


@dataclass
class WithInit:
    a: int
    scale: InitVar[int] = 2

    def __post_init__(self, scale):
        self.a *= scale


print(WithInit(3), WithInit(3, 10), [f.name for f in fields(WithInit)])


@dataclass
class Empty:
    pass


print(Empty(), Empty() == Empty())
for bad in ("default", "mutable", "both"):
    try:
        if bad == "default":
            @dataclass
            class Bad:
                a: int = 1
                b: int
        elif bad == "mutable":
            @dataclass
            class Bad:
                a: list = []
        else:
            field(default=1, default_factory=list)
    except (TypeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
try:
    fields(3)
except TypeError as e:
    print("TypeError:", e)


@dataclass
class Custom:
    v: int

    def __repr__(self):
        return f"<Custom {self.v}>"


print(Custom(1), [Custom(2)])
