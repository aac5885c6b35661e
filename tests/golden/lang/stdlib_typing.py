# typing: every common name imports, subscripting builds aliases that print as CPython's, and
# the helpers (cast, overload, get_origin/get_args, NamedTuple, TypeVar, Generic) behave alike.
import typing
from typing import (TYPE_CHECKING, Any, Callable, ClassVar, Dict, Final, Generic, Iterable,
                    Iterator, List, Literal, Mapping, NamedTuple, Optional, Protocol, Sequence,
                    Set, Tuple, Type, TypeVar, Union, cast, get_args, get_origin, overload)

T = TypeVar("T")
K = TypeVar("K", bound=int)
Co = TypeVar("Co", covariant=True)
print(TYPE_CHECKING, T, K, Co, K.__bound__, T.__name__)
for alias in (Optional[int], Union[int, str], Union[int, None, str], List[int],
              Dict[str, List[int]], Tuple[int, ...], Tuple[()], Callable[[int, str], float],
              Callable[..., int], Any, Optional, List, Literal["a", 1], Sequence[T], Type[int],
              ClassVar[int], Final[int], Iterator[int], Mapping[str, float], Optional["Foo"],
              Union[int], Iterable, typing.Dict, Set[int], typing.Tuple, typing.Callable):
    print(repr(alias))
print(Optional[int] == Union[int, None], Union[int, str] == Union[str, int])
print(get_origin(List[int]), get_args(Dict[str, int]), get_origin(int), get_args(int))
print(get_args(Callable[[int], str]), get_origin(Union[int, str]) is Union)
print(cast(int, "not an int"), cast("List[int]", [1]))


class Box(Generic[T]):
    def __init__(self, item: T) -> None:
        self.item = item

    def get(self) -> T:
        return self.item


print(Box(3).get(), Box[int], Box.__mro__)


class Greeter(Protocol):
    def greet(self) -> str:
        ...


class English:
    def greet(self) -> str:
        return "hello"


def welcome(g: Greeter) -> str:
    return g.greet()


print(welcome(English()), Protocol in Greeter.__mro__)


class Point(NamedTuple):
    x: int
    y: int = 0


p = Point(1)
print(p, p.x, p.y, p == Point(1, 0), Point._fields, p._asdict(), p._replace(y=5))
a, b = Point(3, 4)
print(a, b, len(p), p[0], hash(Point(1, 2)) == hash(Point(1, 2)))
try:
    Point()
except TypeError as e:
    print("TypeError:", e)


@overload
def area(x: int) -> int:
    ...


@overload
def area(x: float) -> float:
    ...


def area(x):
    return x * x


print(area(3))


@overload
def only_overloads(x: int) -> int:
    ...


try:
    only_overloads(1)
except NotImplementedError as e:
    print("NotImplementedError:", e)
try:
    Optional()
except TypeError as e:
    print("TypeError:", e)
try:
    Any[int]
except TypeError as e:
    print("TypeError:", e)
if TYPE_CHECKING:
    import does_not_exist
for make in (lambda: List[int]([1, 2]), lambda: Dict(a=1)):
    try:
        make()
    except TypeError as e:
        print("TypeError:", e)
print(typing.get_type_hints(Box.get), typing.get_type_hints(welcome))
