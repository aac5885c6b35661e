# scatter / scatter_ (src tensor, scalar value, reduce=), scatter_add, scatter_reduce with every
# reduction and include_self, on dim 0, dim 1 and negative dims, index smaller than src; errors.
# (An int32 index is an error in 2.3, the specification, and accepted by 2.11: not used here.)
import torch

src = torch.arange(1.0, 11.0).reshape(2, 5)
idx0 = torch.tensor([[0, 1, 2, 0, 0]])
print(torch.zeros(3, 5).scatter(0, idx0, src), torch.scatter(torch.zeros(3, 5), 0, idx0, src))
idx1 = torch.tensor([[0, 2], [3, 1]])
print(torch.zeros(2, 4).scatter(1, idx1, src), torch.zeros(2, 4).scatter(-1, idx1, src).equal(torch.zeros(2, 4).scatter(1, idx1, src)))
print(torch.zeros(2, 4).scatter(1, idx1, 2.5), torch.zeros(2, 4, dtype=torch.int64).scatter(1, idx1, 7))
x = torch.ones(2, 4)
r = x.scatter_(1, idx1, src)
print(r is x, x)
print(torch.full((2, 4), 2.0).scatter_(1, torch.tensor([[1, 1], [0, 3]]), 3.0, reduce="add"))
print(torch.full((2, 4), 2.0).scatter_(1, torch.tensor([[1, 1], [0, 3]]), 3.0, reduce="multiply"))
print(torch.zeros(4, dtype=torch.int64).scatter(0, torch.tensor([1]), 2.7), torch.zeros(4, dtype=torch.int64).scatter_(0, torch.tensor([1, 1]), 2, reduce="add"))
# scatter_add accumulates repeated indices.
rep = torch.tensor([[0, 1, 0, 1, 2], [2, 2, 2, 0, 0]])
print(torch.zeros(3, 5).scatter_add(0, rep, src), torch.scatter_add(torch.ones(2, 3), 1, rep[:, :4] % 3, src[:, :4]))
y = torch.zeros(2, 3, dtype=torch.int32)
print(y.scatter_add_(1, torch.tensor([[0, 0, 2], [1, 1, 1]]), torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.int32)), y.dtype)
# scatter_reduce: every reduction, include_self True/False; untouched slots keep self.
base = torch.tensor([10.0, 20.0, 30.0, 40.0])
vals = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
ridx = torch.tensor([0, 1, 0, 1, 2, 1])
for red in ["sum", "prod", "mean", "amax", "amin"]:
    print(red, base.scatter_reduce(0, ridx, vals, red), base.scatter_reduce(0, ridx, vals, red, include_self=False))
ib = torch.tensor([1, 2, 3, 4, 5, 6])
print(torch.zeros(4, dtype=torch.int64).scatter_reduce(0, ridx, ib, "mean"), torch.full((4,), 7).scatter_reduce(0, ridx, ib, "mean", include_self=False))
print(torch.scatter_reduce(torch.zeros(3), 0, torch.tensor([0, 0]), torch.tensor([-1.0, -2.0]), "amax", include_self=False))
m2 = torch.tensor([[5.0, 5.0, 5.0], [5.0, 5.0, 5.0]])
i2 = torch.tensor([[2, 0, 2, 2], [1, 1, 0, 1]])
s2 = torch.tensor([[1.0, 8.0, 3.0, 4.0], [9.0, 2.0, 6.0, 7.0]])
print(m2.scatter_reduce(1, i2, s2, "amax"), m2.scatter_reduce(-1, i2, s2, "mean", include_self=False))
print(m2.scatter_reduce(0, torch.tensor([[1, 0, 1]]), s2, "prod", include_self=False))
z = m2.clone()
print(z.scatter_reduce_(1, i2, s2, "sum") is z, z)
w = torch.zeros(3, requires_grad=True)
print(w.scatter(0, torch.tensor([1]), torch.tensor([2.0])), w.scatter_add(0, torch.tensor([2, 2]), torch.ones(2)))
for bad in [lambda: base.scatter_reduce(0, ridx, vals, "median"),
            lambda: torch.zeros(2, 4).scatter(1, torch.tensor([[4]]), src),
            lambda: torch.zeros(2, 4).scatter(1, idx1, src.double())]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
