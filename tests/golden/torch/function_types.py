# What torch's functions are to Python: most of torch.nn.functional are Python functions,
# torch's operators are builtin methods of a C++ class, a few of F's are builtins of torch._C._nn.
import inspect
import types

import torch
import torch.nn.functional as F


def shown(fn):
    return repr(fn).split(" at 0x")[0]


for fn in (F.relu, F.softmax, F.max_pool2d, F.interpolate, F.dropout, F.cross_entropy):
    print(fn.__name__, type(fn).__name__, fn.__module__, fn.__qualname__, shown(fn))
    print("  isfunction", inspect.isfunction(fn), isinstance(fn, types.FunctionType))
for fn in (torch.cat, torch.relu, torch.matmul, F.conv2d):
    print(fn.__name__, type(fn).__name__, fn.__module__, fn.__qualname__, shown(fn))
    print("  isbuiltin", inspect.isbuiltin(fn), isinstance(fn, types.BuiltinFunctionType))
for fn in (F.gelu, F.linear):
    print(fn.__name__, type(fn).__name__, fn.__module__, shown(fn))
for fn in (torch.manual_seed, torch.compile, torch.einsum, torch.split):
    print(fn.__name__, type(fn).__name__, fn.__module__, shown(fn))
print(F.conv2d is torch.conv2d, F.relu is torch.relu)


class Block(torch.nn.Module):
    act = F.relu  # a Python function as a class attribute binds like a method

    def forward(self, x):
        return type(self).act(x)


print(Block()(torch.tensor([-1.0, 2.0])))
