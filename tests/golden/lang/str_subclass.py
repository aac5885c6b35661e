# Subclasses of str: instances are strs (methods, equality, hashing, formatting, isinstance)
# with their own class, namespace and overrides; and str-mixin enums, `class Task(str, Enum)`,
# the idiom config and model files use for string choices.
from enum import Enum, auto


class Tag(str):
    def shout(self):
        return self.upper() + "!"


t = Tag("hi")
t.note = 3
print(t, repr(t), t.shout(), t.note, type(t).__name__, isinstance(t, str), t == "hi")
print(len(t), t + "x", type(t + "x").__name__, t[0], type(t[0]).__name__, t.upper())
print({"hi": 1}[t], hash(t) == hash("hi"), t in ["hi", "ho"], "h" in t, sorted([Tag("b"), "a"]))
print(f"{t:>5}|", "{}".format(t), "%s" % t, str(t), type(str(t)).__name__, t.__dict__)
print(Tag(), repr(Tag(5)), Tag([1, 2]), Tag.__mro__, issubclass(Tag, str))


class Lower(str):
    def __new__(cls, text):
        obj = super().__new__(cls, text.lower())
        obj.original = text
        return obj

    def __repr__(self):
        return "Lower(" + str.__repr__(self) + ")"

    def __str__(self):
        return "<" + str.__str__(self) + ">"


w = Lower("AbC")
print(w, repr(w), [w], w.original, w == "abc", f"{w}", "%s" % w, str.__str__(w))


class Caseless(str):
    def __eq__(self, other):
        return self.lower() == str(other).lower()

    def __hash__(self):
        return hash(self.lower())


c = Caseless("Key")
print(c == "KEY", c != "key", "KEY" == c, {c: 1}.get(Caseless("KEY")), c.__hash__ is not None)


class Plain(str):
    def __eq__(self, other):
        return str.__eq__(self, other) if hasattr(str, "__eq__") else False


try:
    hash(Plain("x"))
except TypeError as e:
    print("TypeError:", e)

try:
    object.__new__(Tag)
except TypeError as e:
    print("TypeError:", e)

try:
    str.__new__(int, "x")
except TypeError as e:
    print("TypeError:", e)


class Task(str, Enum):
    TRAIN = "train"
    EVAL = "eval"


print(Task.TRAIN, repr(Task.EVAL), f"{Task.TRAIN}", format(Task.EVAL, ">8"), Task.TRAIN.value)
print(Task("eval").name, Task["TRAIN"] is Task.TRAIN, Task.TRAIN == "train", Task.EVAL != "train")
print(isinstance(Task.TRAIN, str), isinstance(Task.TRAIN, Enum), Task.TRAIN.upper(),
      Task.TRAIN + "ing", type(Task.TRAIN._value_).__name__)
print({"train": 1, "eval": 2}[Task.EVAL], hash(Task.TRAIN) == hash("train"), list(Task), len(Task))
print(Task.__mro__, "train" in [Task.TRAIN], Task.TRAIN.startswith("tr"), str(Task.EVAL))
try:
    Task("test")
except ValueError as e:
    print("ValueError:", e)


class Size(str, Enum):
    SMALL = auto()
    LARGE = auto()

    def __str__(self):
        return self.value


print(Size.SMALL, repr(Size.LARGE), f"{Size.SMALL}", Size("2") is Size.LARGE)


def pick(mode: Task = Task.TRAIN):
    return "fit" if mode == "train" else "score"


print(pick(), pick(Task("eval")), pick("train"))
