# enum: members with name/value, lookup by value and by name, iteration, len, auto(),
# IntEnum members that behave as their ints, CPython's reprs and errors.
import enum
from enum import Enum, IntEnum, auto


class Color(Enum):
    RED = 1
    GREEN = auto()
    BLUE = "b"
    CRIMSON = 1  # an alias of RED

    def describe(self):
        return self.name.lower()


print(Color.RED, repr(Color.GREEN), Color(1), Color["BLUE"], Color.CRIMSON is Color.RED)
print(list(Color), len(Color), Color.RED.name, Color.RED.value, Color.RED in Color)
print(Color.RED == 1, Color.RED is Color(1), Color.RED == Color.RED, Color.RED != Color.GREEN)
print(Color.RED.describe(), isinstance(Color.RED, Color), type(Color.RED).__name__)
print(list(Color.__members__), [c.name for c in Color], f"{Color.GREEN}", str(Color.BLUE))
print({Color.RED: "warm"}[Color(1)], sorted(Color, key=lambda c: c.name))
try:
    Color(5)
except ValueError as e:
    print("ValueError:", e)
try:
    Color["PINK"]
except KeyError as e:
    print("KeyError:", e)
try:
    Color.RED.value = 3
except AttributeError as e:
    print("AttributeError:", e)


class Level(IntEnum):
    LOW = 1
    MID = auto()
    HIGH = auto()


print(Level.LOW, repr(Level.MID), Level.LOW == 1, Level.MID + 1, Level(2), int(Level.HIGH))
print([10, 20, 30, 40][Level.MID], f"{Level.LOW}", hash(Level.LOW) == hash(1),
      Level.LOW < Level.HIGH, sorted([Level.HIGH, Level.LOW]), Level.HIGH > 2, 2 * Level.MID)
print(list(Level), Level["HIGH"].value, Level.MID.name)


class Mode(Enum):
    TRAIN = "train"
    EVAL = "eval"


def run(mode: Mode = Mode.TRAIN):
    if mode is Mode.EVAL:
        return "evaluating"
    return "training"


print(run(), run(Mode("eval")), Mode.TRAIN.value.upper())


@enum.unique
class Unique(Enum):
    A = 1
    B = 2


print(list(Unique))
try:
    @enum.unique
    class Dup(Enum):
        A = 1
        B = 1
except ValueError as e:
    print("ValueError:", e)
