# torch.hstack, vstack, row_stack, dstack and column_stack over 0-D, 1-D and 2-D inputs, eager
# and compiled (the inductor backend) against eager.
import torch
a, b = torch.arange(3.0), torch.arange(3.0, 6.0)
m, n = torch.arange(6.0).reshape(2, 3), torch.arange(6.0, 12.0).reshape(2, 3)
s = torch.tensor(7.0)
for name in ["hstack", "vstack", "row_stack", "dstack", "column_stack"]:
    fn = getattr(torch, name)
    for args in ([a, b], [m, n], [s, s]):
        r = fn(args)
        print(name, tuple(r.shape), r.flatten().tolist())
print(torch.hstack([torch.zeros(2, 1), torch.ones(2, 2)]).tolist())
print(torch.column_stack([a, m.t()]).tolist())
try:
    torch.hstack([])
except RuntimeError as e:
    print("RuntimeError", e)
compiled = torch.compile(lambda x, y, z: (torch.hstack([x, y]) * 2, torch.vstack([x, y]) + 1,
                                         torch.dstack([z, z]), torch.column_stack([x, z.t()])))
for got, want in zip(compiled(a, b, m), (torch.hstack([a, b]) * 2, torch.vstack([a, b]) + 1,
                                        torch.dstack([m, m]), torch.column_stack([a, m.t()]))):
    print(tuple(got.shape), torch.equal(got, want))
