# *_like factories and Tensor.new_* methods keep the source's shape (and dtype by default).
import torch

x = torch.arange(6, dtype=torch.int32).reshape(2, 3)
print(torch.zeros_like(x))
print(torch.ones_like(x, dtype=torch.float32))
print(torch.full_like(x, 7))
print(torch.full_like(x, 2.5))
print(torch.full_like(x, 2.5, dtype=torch.float64))
print(torch.empty_like(x).shape, torch.empty_like(x).dtype)
y = torch.linspace(0, 1, 4)
r = torch.rand_like(y)
n = torch.randn_like(y)
print(r.shape, r.dtype, bool(((r >= 0) & (r < 1)).all()), n.shape, n.dtype)
print(torch.zeros_like(y, requires_grad=True))
try:
    torch.rand_like(x)
except RuntimeError as e:
    print(type(e).__name__, e)
print(x.new_zeros(2), x.new_ones((1, 2)), x.new_full((2,), 5), x.new_tensor([1, 2]))
print(y.new_zeros(3), y.new_ones(2, dtype=torch.int64), y.new_tensor([1, 2]))
print(y.new_empty(4).shape, y.new_full((2, 2), 0.5))
