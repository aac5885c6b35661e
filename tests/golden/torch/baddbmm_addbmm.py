# baddbmm (beta, alpha, broadcast input, in-place), addbmm, addmv, addr: exact values on small
# exactly representable inputs, dtypes, beta=0 ignoring NaN in input, errors.
import torch

b1 = torch.arange(12.0).reshape(2, 2, 3) / 2
b2 = torch.arange(12.0).reshape(2, 3, 2) - 4
inp = torch.tensor([[1.0, -1.0], [0.5, 2.0]])
print(torch.bmm(b1, b2))
print(torch.baddbmm(inp, b1, b2), torch.baddbmm(inp.expand(2, 2, 2), b1, b2, beta=0.5, alpha=2))
print(torch.baddbmm(torch.tensor(3.0), b1, b2, beta=-1, alpha=0.25), inp.unsqueeze(0).baddbmm(b1, b2, alpha=0).shape)
nan_in = torch.full((2, 2, 2), float("nan"))
print(torch.baddbmm(nan_in, b1, b2, beta=0), torch.baddbmm(nan_in, b1, b2, alpha=0).isnan().all())
acc = torch.ones(2, 2, 2)
r = acc.baddbmm_(b1, b2, beta=2, alpha=0.5)
print(r is acc, acc)
bi = torch.arange(8).reshape(2, 2, 2)
print(torch.baddbmm(torch.ones(2, 2, 2, dtype=torch.int64), bi, bi, beta=3, alpha=2), torch.baddbmm(inp.double(), b1.double(), b2.double()).dtype)
# addbmm: sums the batch of products into one matrix.
print(torch.addbmm(inp, b1, b2), torch.addbmm(inp, b1, b2, beta=2, alpha=0.5), inp.addbmm(b1, b2).shape)
print(torch.addbmm(torch.tensor([10.0, 20.0]), b1, b2, beta=0.5), inp.clone().addbmm_(b1, b2, alpha=-1))
# addmv: input + mat @ vec.
mat = torch.arange(6.0).reshape(2, 3)
vec = torch.tensor([1.0, -2.0, 0.5])
print(torch.addmv(torch.tensor([1.0, 2.0]), mat, vec), torch.addmv(torch.tensor(1.5), mat, vec, beta=2, alpha=-1))
print(torch.tensor([1.0, 2.0]).addmv(mat, vec, beta=0), torch.addmv(torch.zeros(2, dtype=torch.int64), torch.arange(6).reshape(2, 3), torch.tensor([1, 2, 3])))
# addr: input + outer(vec1, vec2).
v1 = torch.tensor([1.0, 2.0])
v2 = torch.tensor([0.5, -1.0, 3.0])
print(torch.addr(torch.ones(2, 3), v1, v2), torch.addr(torch.ones(3), v1, v2, beta=2, alpha=0.5))
print(torch.zeros(2, 3).addr(v1, v2, beta=0), torch.addr(torch.zeros(2, 2, dtype=torch.int64), torch.tensor([1, 2]), torch.tensor([3, 4]), alpha=2))
print(torch.addr(torch.zeros(2, 2, dtype=torch.bool), torch.tensor([True, False]), torch.tensor([True, True])))
print(torch.ones(2, 3).addr_(v1, v2, alpha=2))
g = torch.ones(2, 2, 2, requires_grad=True)
print(torch.baddbmm(g, b1, b2).grad_fn.name(), torch.addbmm(g[0], b1, b2).grad_fn.name(), torch.addmv(g[0, 0], inp, v1).grad_fn.name(), torch.addr(g[0], v1, v1).grad_fn.name())
for bad in [lambda: torch.baddbmm(torch.zeros(2, 2, 3), b1, b1),
            lambda: torch.baddbmm(inp.double(), b1, b2),
            lambda: torch.addmv(torch.zeros(2), mat, torch.ones(2))]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
