# sum and mean: all elements, one dim, several dims, keepdim, dtype, integer inputs.
import torch

x = torch.arange(24.0).reshape(2, 3, 4)
print(x.sum(), torch.sum(x), x.sum(0), x.sum(-1), x.sum(dim=1, keepdim=True).shape)
print(x.sum((0, 2)), x.sum(dim=[1, 2], keepdim=True), torch.sum(x, dim=()), x.sum(dim=None))
print(x.mean(), x.mean(1), torch.mean(x, (0, 1)), x.mean(-1, keepdim=True).shape)
i = torch.arange(6).reshape(2, 3)
print(i.sum(), i.sum(0), i.sum().dtype, i.int().sum().dtype, i.sum(dtype=torch.float32))
print(torch.tensor([True, True, False]).sum(), i.mean(dtype=torch.float64), i.float().mean(0))
print(torch.tensor([1.5, 2.5], dtype=torch.float16).sum(), torch.ones(3, dtype=torch.bfloat16).mean())
print(torch.zeros(0).sum(), torch.zeros(0).mean(), torch.zeros(2, 0).sum(1))
print(x.t().sum(0) if x.dim() == 2 else x.transpose(0, 2).sum(0))
out = torch.empty(3)
torch.sum(i, 0, out=out)
print(out)
try:
    i.mean()
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.sum(3)
except IndexError as e:
    print(type(e).__name__, e)
try:
    x.sum((0, 0))
except RuntimeError as e:
    print(type(e).__name__, e)
w = torch.ones(2, 2, requires_grad=True)
print(w.sum(), w.sum(0), w.mean(), w.mean(1))
