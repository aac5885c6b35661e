# The three forms of max/min, their named-tuple results, and amax/amin.
import torch

x = torch.tensor([[3.0, 7.0, 1.0], [9.0, 2.0, 9.0]])
print(x.max(), torch.min(x), x.max(dim=1), torch.min(x, 0), x.max(1, keepdim=True))
r = x.max(1)
print(type(r).__name__, r.values, r.indices, r[0], r[1], len(r))
values, indices = torch.min(x, dim=-1)
print(values, indices)
print(torch.max(x, torch.tensor([5.0, 5.0, 5.0])), x.min(torch.tensor(2.0)))
print(torch.amax(x, 1), x.amin(0), x.amax((0, 1)), x.amin(dim=-1, keepdim=True), x.amax())
i = torch.tensor([[1, 5], [7, 3]])
print(i.max(), i.max(0), i.amin(1), torch.tensor([True, False]).max())
print(torch.tensor([1.0, float("nan"), 3.0]).max(), torch.tensor([[2.0, float("nan")]]).max(1))
print(x.t().max(0))
try:
    torch.zeros(0).max()
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.max(keepdim=True)
except TypeError as e:
    print(type(e).__name__, e)
w = x.clone().requires_grad_()
print(w.max(), w.max(1), w.amax(1), torch.max(w, torch.zeros(3)))
