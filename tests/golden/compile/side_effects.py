# Stores into objects that existed before the compiled frame (an attribute of a plain object, a
# dict entry, a list item) happen on every call, compiled or cached, without a graph break.
import torch

graphs = []


def backend(gm, example_inputs):
    graphs.append(len([n for n in gm.graph.nodes if n.op == "call_function"]))
    return gm.forward


class Config:
    def __init__(self):
        self.last = None


cfg = Config()
cache = {}
history = [None]


def f(x):
    y = torch.sin(x) + 1
    cfg.last = y * 2
    cache["y"] = y
    history[0] = y.sum()
    return y - 1


cf = torch.compile(f, backend=backend)
torch.manual_seed(0)
for i in range(4):
    x = torch.randn(3)
    out = cf(x)
    ok = torch.allclose(out, torch.sin(x)) and torch.allclose(cfg.last, (torch.sin(x) + 1) * 2)
    ok = ok and torch.allclose(cache["y"], torch.sin(x) + 1)
    ok = ok and torch.allclose(history[0], (torch.sin(x) + 1).sum())
    print(ok, graphs)

# list.append on a global: the list's length is guarded, so each call compiles again and
# appends once, as in PyTorch.
appended = []
compiles = []


def counting(gm, example_inputs):
    compiles.append(1)
    return gm.forward


def appends(x):
    appended.append(x.sum())
    return x * len(appended)


ca = torch.compile(appends, backend=counting)
for i in range(3):
    r = ca(torch.ones(2))
    print(len(appended), r, len(compiles))
