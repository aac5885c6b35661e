# A dynamic size broadcast against a static one: the two must be equal, so Dynamo's shape env
# specializes the symbol (Eq(s0, 2)) and the graph is static from that op on: no `size` node
# for a later x.shape read, and the entry's guard is the static size. A size that only looks
# static (a slice by the symbol) does not specialize it; type_as takes only a dtype.
# Recorded with torch==2.3.1. PyTorch 2.11 records no `size` node in any of these graphs
# (its first block prints ['squeeze'], ['squeeze'], [mul, squeeze], [mul, squeeze]; the last
# graph of the others has no size/getitem pair), while the specializations are the same.
import torch

graphs = []
def counting(gm, example_inputs):
    graphs.append([str(n.target).split(" at ")[0] for n in gm.graph.nodes
                   if n.op in ("call_function", "call_method")])
    return gm.forward

def f(x, m=None):
    y = x * m if m is not None else x
    return y.squeeze(-1) if y.shape[-1] == 1 else y
fc = torch.compile(f, backend=counting)
fc(torch.ones(2, 1)); fc(torch.ones(4, 1)); fc(torch.ones(2, 1), torch.ones(2, 1))
fc(torch.ones(3, 1), torch.ones(3, 1))
for g in graphs:
    print(g)

graphs.clear()
def pool(h, mask):
    m = mask.unsqueeze(-1).type_as(h)
    out = (h * m).sum(1) / m.sum(1).clamp(min=1e-9)
    return out.reshape(out.shape[0], -1)
pc = torch.compile(pool, backend=counting)
h = torch.arange(48.0).reshape(2, 4, 6)
pc(h, torch.ones(2, 4)); pc(torch.ones(3, 5, 6), torch.ones(3, 5))
r = pc(torch.ones(4, 5, 6), torch.ones(4, 5))
print(r.shape, len(graphs))
for g in graphs:
    print(g)

graphs.clear()
table = torch.arange(64.0).reshape(8, 8)
def sliced(x):
    T = x.shape[1]
    return (x + table[:T, :T]).sum(-1).reshape(x.shape[0], 1)
sc = torch.compile(sliced, backend=counting)
for t in (3, 4, 5, 6):
    sc(torch.ones(t, t))
print(len(graphs))
for g in graphs:
    print(g)
