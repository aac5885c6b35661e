# A user nn.Module: submodules, parameters, buffers, named_* iteration, children, printing.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc = nn.Linear(dim, dim)
        self.scale = nn.Parameter(torch.ones(dim))
        self.register_buffer("mask", torch.tril(torch.ones(2, 2)))
        self.register_buffer("tmp", torch.zeros(1), persistent=False)

    def forward(self, x):
        return F.gelu(self.fc(self.norm(x))) * self.scale


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)
        self.blocks = nn.ModuleList([Block(4) for _ in range(2)])
        self.head = nn.Linear(4, 10, bias=False)

    def forward(self, idx):
        x = self.embed(idx)
        for b in self.blocks:
            x = b(x)
        return self.head(x)


torch.manual_seed(0)
m = Model()
print(m)
print(m(torch.tensor([[1, 2, 3]])).shape)
print([n for n, _ in m.named_parameters()])
print([(n, tuple(b.shape)) for n, b in m.named_buffers()])
print(sum(p.numel() for p in m.parameters()), len(list(m.parameters())))
print([n for n, _ in m.named_children()], [type(c).__name__ for c in m.children()])
print([n for n, _ in m.named_modules()])
print(len(list(m.modules())), m.blocks[0].scale.shape, m.blocks[1].mask)
print(isinstance(m.blocks[0].scale, nn.Parameter), isinstance(m.blocks[0].mask, nn.Parameter))
m.blocks[0].mask = torch.zeros(2, 2)
print(m.blocks[0].mask, "mask" in dict(m.blocks[0].named_buffers()))
try:
    m.missing
except AttributeError as e:
    print(type(e).__name__, e)
try:
    m.register_buffer("head", torch.ones(1))
except KeyError as e:
    print(type(e).__name__, e)
try:
    m.blocks[0].scale = torch.ones(4)
except TypeError as e:
    print(type(e).__name__, e)


class NoInit(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(1, 1)


try:
    NoInit()
except AttributeError as e:
    print(type(e).__name__, e)


class Empty(nn.Module):
    pass


try:
    Empty()(1)
except NotImplementedError as e:
    print(type(e).__name__, e)
print(Empty())
