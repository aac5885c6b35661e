# Patterns of real model files that captured wrongly (issue 15, the models corpus):
# - a Sequential's children are called as modules, so a parameter rebound on one after the
#   compile is used (2.3 calls them as call_module L__self___seq_0; they were inlined with their
#   weights baked in as constants);
# - indexing a ModuleList and a negative index into a tuple attribute make guards that hold on
#   the next call (they failed every time: one recompile per call);
# - the size of a tensor sliced by a dynamic int (cache[:pos + 1].shape[0], the KV-cache
#   pattern) is the size of this call's slice, not the traced example's.
# - reading x.dtype or x.device (torch.arange(t, device=idx.device)) no longer makes sizes static;
# - torch.where(cond) with one argument breaks the graph as nonzero does (it was recorded);
# - math.sqrt of a dynamic size (attention's 1 / math.sqrt(k.size(-1))) raised TypeError.
# Graph counts printed only where 2.3 and the installed PyTorch agree.
import math

import torch
import torch.nn as nn

graphs = []
def counting(gm, example_inputs):
    graphs.append(len(gm.graph.nodes))
    return gm.forward


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.seq = nn.Sequential(nn.Linear(2, 2, bias=False), nn.Identity(), nn.Linear(2, 2, bias=False))
        with torch.no_grad():
            self.seq[0].weight.copy_(torch.eye(2))
            self.seq[2].weight.copy_(torch.eye(2) * 2)

    def forward(self, x):
        return self.seq(x)


m = Stack()
f = torch.compile(m, backend="eager")
x = torch.tensor([[1.0, 2.0]])
print("sequential:", f(x).tolist())
m.seq[0].weight = nn.Parameter(torch.eye(2) * 3)
print("after rebinding seq[0].weight:", f(x).tolist(), m(x).tolist())


class Experts(nn.Module):
    def __init__(self):
        super().__init__()
        self.dims = (2, 3)
        self.experts = nn.ModuleList([nn.Linear(3, 3), nn.Linear(3, 3)])
        self.table = nn.ModuleDict({"gate": nn.Linear(3, 1)})
        with torch.no_grad():
            for i, e in enumerate(self.experts):
                e.weight.copy_(torch.arange(9.0).reshape(3, 3) / 9 - i)
                e.bias.fill_(0.5)
            self.table["gate"].weight.fill_(0.25)
            self.table["gate"].bias.fill_(0.0)

    def forward(self, x):
        h = x.view(-1, self.dims[-1])
        return self.table["gate"](self.experts[-1](self.experts[0](h)))


graphs.clear()
e = Experts()
g = torch.compile(e, backend=counting)
x = torch.arange(6.0)
for _ in range(3):
    out = g(x)
print("experts:", [round(v, 4) for v in out.flatten().tolist()], "graphs:", len(graphs))
print("same as eager:", torch.allclose(out, e(x)))

cache = torch.arange(16.0)


@torch.compile(backend="eager")
def cached_length(x, pos):
    return x * cache[: pos + 1].shape[0]


for pos in [5, 6, 7, 20]:
    print("slice length at", pos, cached_length(torch.ones(1), pos).tolist())


@torch.compile(backend="eager")
def window(x, start, n):
    keys = x[:, : start + n]
    b, t = keys.shape
    return keys.expand(2, b, t).sum(), t


for start in [3, 4, 5, 6]:
    total, t = window(torch.arange(32.0).reshape(2, 16), start, 2)
    print("window", start, t, total.item())


@torch.compile
def window_inductor(x, start):
    keys = x[:, : start + 1]
    return keys * keys.shape[1]


for start in [3, 4, 5]:
    x = torch.arange(32.0).reshape(2, 16)
    print("inductor window", start, torch.equal(window_inductor(x, start), x[:, : start + 1] * (start + 1)))


@torch.compile(backend="eager", dynamic=True)
def scaled(q):
    return q * (1.0 / math.sqrt(q.size(-1)))


print("math.sqrt of a size:", scaled(torch.ones(1, 4)).tolist(), scaled(torch.ones(1, 16))[0, 0].item())

graphs.clear()


@torch.compile(backend=counting)
def positions(idx):
    t = idx.size(0)
    pos = torch.arange(0, t, dtype=torch.long, device=idx.device)
    return idx * 0 + pos.to(idx.dtype)


for t in [4, 5, 6, 7]:
    last = positions(torch.zeros(t, dtype=torch.long))
print("arange(0, t, device=idx.device):", len(graphs), "graphs, last", last.tolist())


def routed(x):
    (idx,) = torch.where(x > 0)  # one argument: nonzero(as_tuple=True), shape from the data
    return x[idx] * 2


explained = torch._dynamo.explain(routed)(torch.tensor([1.0, -1.0, 2.0]))
print("torch.where(cond):", explained.graph_count, "graphs,", explained.graph_break_count, "break")
