# Generators under torch.compile: a generator function consumed inside a compiled frame (a
# module method over its layers, pairs of a list, next() on a generator) is inlined into the
# graph as Dynamo does; the counting backend shows one graph per frame.
import torch
import torch.nn as nn

def pairs(xs):
    for i in range(len(xs) - 1):
        yield xs[i], xs[i + 1]

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
    def blocks(self):
        for layer in self.layers:
            yield layer
    def forward(self, x):
        for layer in self.blocks():
            x = torch.relu(layer(x))
        return x

torch.manual_seed(0)
net = Net()
x = torch.randn(2, 4)
eager = net(x)
cnt = 0
def counting(gm, example_inputs):
    global cnt
    cnt += 1
    return gm.forward
compiled = torch.compile(net, backend=counting)
print(torch.allclose(compiled(x), eager), cnt)

@torch.compile(backend=counting)
def f(x):
    total = x * 0
    for a, b in pairs([x, x + 1, x * 2]):
        total = total + a * b
    return total
print(f(torch.ones(3)), cnt)

def g(x):
    gen = (x * i for i in range(3))
    return sum(gen)
print(torch.compile(g, backend=counting)(torch.ones(2)), cnt)
def make_gen(x):
    yield x + 1
    yield x + 2
@torch.compile(backend=counting)
def h(x):
    it = make_gen(x)
    return next(it) * next(it)
print(h(torch.ones(2)), cnt)
