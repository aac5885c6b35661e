# Enum members under torch.compile: a member (of a plain Enum or a `str` mixin) is guarded by
# identity, as Dynamo's EnumVariable is, so passing another member recompiles and each entry
# computes its own branch; `mode == Mode.TRAIN` and `act.value` are constants in the graph.
# A str-mixin member is a str: a compiled function comparing it with a string literal traces
# the same way. Kiln's bundled enum.py is skipped as Dynamo skips the stdlib: its methods
# (`value`, `__repr__` in a recompile reason) are never compiled frames of their own.
import torch
from enum import Enum

graphs = []


def counting(gm, example_inputs):
    graphs.append(len(gm.graph.nodes))
    return gm.forward


class Mode(Enum):
    TRAIN = 1
    EVAL = 2


class Act(str, Enum):
    RELU = "relu"
    GELU = "gelu"


@torch.compile(backend=counting)
def step(x, mode):
    if mode == Mode.TRAIN:
        return x + 1
    return x * mode.value


def activate_eager(x, act):
    y = torch.relu(x) if act == "relu" else torch.nn.functional.gelu(x)
    if act is Act.GELU:
        y = y * 2
    return y, act.value.upper(), f"{act}"


activate = torch.compile(activate_eager, backend=counting)
x = torch.full((2,), -3.0)
for mode in [Mode.TRAIN, Mode.TRAIN, Mode.EVAL, Mode.EVAL, Mode.TRAIN]:
    print(mode, step(x, mode), len(graphs))
for act in [Act.RELU, Act.GELU, Act.RELU, Act.GELU]:
    y, name, text = activate(x, act)
    print(repr(act), torch.allclose(y, activate_eager(x, act)[0]), name, text, len(graphs))
print(graphs)
