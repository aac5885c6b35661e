# More nn.Module protocol: apply, get_submodule, shared parameters, deleting and replacing
# attributes, extra_repr overrides, keyword arguments to forward, zero_grad.
import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor
        self.weight = nn.Parameter(torch.full((2,), float(factor)))

    def forward(self, x, bias=0.0):
        return x * self.weight + bias

    def extra_repr(self):
        return f"factor={self.factor}"


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 2, bias=False)
        self.b = nn.Linear(2, 2, bias=False)
        self.b.weight = self.a.weight
        self.inner = nn.Sequential(Scale(2), Scale(3))


m = Tied()
print(m)
print([n for n, _ in m.named_parameters()], len(list(m.parameters())))
print([n for n, _ in m.named_parameters(remove_duplicate=False)])
print(m.get_submodule("inner.1"), m.get_submodule(""), m.inner[0](torch.ones(2), bias=1.0))
names = []
m.apply(lambda mod: names.append(type(mod).__name__))
print(names)
m.inner = None
print(m, [n for n, _ in m.named_children()])
m.extra = nn.ReLU()
del m.a
print(m)
print(hasattr(m, "a"), hasattr(m, "extra"), m.zero_grad())
try:
    m.get_submodule("nope")
except AttributeError as e:
    print(type(e).__name__, e)
try:
    m.add_module("bad", 3)
except TypeError as e:
    print(type(e).__name__, e)
s = Scale(4)
s.weight = None
print([n for n, _ in s.named_parameters()], s.weight)
s.weight = nn.Parameter(torch.zeros(1))
print(s.weight, s)
print(nn.ModuleList([Scale(1), Scale(1), Scale(2)]))
