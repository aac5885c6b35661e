# Seeded random factories: values are Kiln's own stream, so print only shapes, dtypes,
# bounds and reproducibility.
import torch

torch.manual_seed(123)
a = torch.randn(3, 4)
torch.manual_seed(123)
b = torch.randn(3, 4)
print(a.shape, a.dtype, torch.equal(a, b))
r = torch.rand(1000)
print(r.shape, bool((r >= 0).all()), bool((r < 1).all()), round(r.mean().item(), 1))
n = torch.randn(20000)
print(abs(round(n.mean().item(), 1)), round(n.std().item(), 1))
i = torch.randint(0, 5, (3, 3))
print(i.shape, i.dtype, bool(((i >= 0) & (i < 5)).all()))
print(torch.randint(3, (4,)).dtype, torch.randint(2, 4, (2,), dtype=torch.int32).dtype)
p = torch.randperm(6)
print(p.shape, p.dtype, sorted(p.tolist()))
print(torch.rand(2, 3, dtype=torch.float64).dtype, torch.randn((2,), dtype=torch.float16).dtype)
print(torch.randn(2, requires_grad=True).requires_grad)
print(torch.initial_seed())
m = torch.multinomial(torch.tensor([0.0, 1.0, 0.0]), 2, replacement=True)
print(m)
try:
    torch.randn(2, dtype=torch.int64)
except NotImplementedError as e:
    print(type(e).__name__, e)
try:
    torch.randint(5, 2, (2,))
except RuntimeError as e:
    print(type(e).__name__, e)
