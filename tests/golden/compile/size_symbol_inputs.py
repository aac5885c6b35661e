# A dynamic graph's inputs as a backend sees them: each free size symbol is a placeholder of
# its own (a torch.SymInt example) before the tensor that introduced it, a dynamic int is a
# SymInt input too, inputs come in the order the frame first read them, and a specialised
# symbol is no input. Symbol names are not printed (Kiln numbers them in its own order).
# Recorded with torch==2.3.1. PyTorch 2.11 records x.shape[0] without size nodes (8 -> 6 and
# 11 -> 10 nodes) and passes b's own size symbol in g (6 inputs, where 2.3 duck-sizes b's
# trailing dim with a's and passes 5).
import torch

def counting(gm, example_inputs):
    kinds = [type(e).__name__ for e in example_inputs]
    ops = [n.op for n in gm.graph.nodes]
    print(len(example_inputs), kinds, ops.count("placeholder"), len(ops))
    return gm.forward

def f(x, n):
    return x * n + x.shape[0]
fc = torch.compile(f, backend=counting)
for size, n in ((4, 2), (6, 3), (7, 4)):
    print(fc(torch.ones(size), n).tolist()[0])

def g(a, b):
    return torch.cat([a, b]).sum(0) + a.shape[1]
gc = torch.compile(g, backend=counting)
gc(torch.ones(2, 3), torch.ones(5, 3))
print(gc(torch.ones(3, 4), torch.ones(6, 4)).tolist())

def h(x, m):
    return (x * m).sum()
hc = torch.compile(h, backend=counting)
hc(torch.ones(3, 2), torch.ones(3, 2))
hc(torch.ones(5, 2), torch.ones(5, 2))
print(hc(torch.ones(5, 2), torch.ones(1, 2)).item())

ic = torch.compile(f)  # inductor with the same inputs
for size, n in ((4, 2), (6, 3), (9, 5)):
    print(torch.allclose(ic(torch.ones(size), n), f(torch.ones(size), n)))
