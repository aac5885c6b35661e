# Recorded with torch==2.3.1: what a custom backend finds in node.meta. example_value is a
# FakeTensor (a torch.Tensor to isinstance, with no data) whose dynamic sizes are SymInts that
# print as their symbols; intermediates show their grad_fn, integer results never require
# grad; a SymInt input's example is a SymInt in both the metadata and example_inputs. PyTorch
# specialises a symbol whose value a backend reads (int(s0)); Kiln does not, so none is read.
import torch

rows = []


def backend(gm, example_inputs):
    for n in gm.graph.nodes:
        if n.op == "output":
            continue
        v = n.meta["example_value"]
        if isinstance(v, torch.Tensor):
            rows.append((n.name, type(v).__name__, repr(v), tuple(v.shape), v.dtype, v.dim(),
                         v.requires_grad, "val" in n.meta))
        else:
            rows.append((n.name, type(v).__name__, str(v)))
    rows.append(("inputs", [type(x).__name__ for x in example_inputs],
                 [str(x) if type(x).__name__ == "SymInt" else tuple(x.shape)
                  for x in example_inputs]))
    return gm.forward


def f(t, i):
    return (t.t() * 2).sum(0).long() + i


compiled = torch.compile(f, backend=backend)
compiled(torch.ones(3, 2, requires_grad=True), torch.arange(3))
out = compiled(torch.ones(4, 2, requires_grad=True), torch.arange(4))
print(out, out.requires_grad)
for row in rows:
    print(row)
