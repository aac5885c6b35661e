# Recorded with torch==2.3.1: the order and names of a graph's inputs. Dynamo wraps a frame's
# locals lazily and makes a local a graph input (with its size symbols) when an op first uses
# it, not when the frame loads it: `t * torch.arange(k)` makes k's symbol s0 and its input
# first, `t * k` makes t's size s0; `w.expand(...)` inside F.linear(x, ...) puts w before x.
import torch
import torch.nn.functional as F

graphs = []


def counting(gm, example_inputs):
    graphs.append([n.name for n in gm.graph.nodes if n.op == "placeholder"])
    return gm.forward


def linear(x, w, b):
    return F.relu(F.linear(x, w.expand(16, 16), b))


def scale(t, k: int):
    return t * k


def ramp(t, k: int):
    return t * torch.arange(k)


def shifted(x, n: int):
    y = n + 1
    return x * y


def branch(x, n: int):
    if n > 2:
        return x * 2
    return x


def size_first(x, n: int):
    return x.shape[0] + x * n


torch.compile(linear, backend=counting)(torch.randn(16, 16), torch.randn(16), torch.randn(16))
for fn in (scale, ramp, shifted, branch, size_first):
    torch._dynamo.reset()
    compiled = torch.compile(fn, backend=counting)
    compiled(torch.ones(3), 3)
    out = compiled(torch.ones(4), 4)
    print(fn.__name__, torch.allclose(out, fn(torch.ones(4), 4)))
for g in graphs:
    print(g)
