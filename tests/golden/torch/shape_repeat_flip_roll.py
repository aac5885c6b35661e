# repeat, flip, roll.
import torch

x = torch.arange(6).reshape(2, 3)
print(x.repeat(2, 1), x.repeat(1, 2), x.repeat(2, 1, 1).shape, torch.tensor([1, 2]).repeat(3))
print(x.repeat((2, 2)).shape, x.repeat(1, 1).is_contiguous())
print(x.flip(0), torch.flip(x, [1]), x.flip(0, 1), x.flip((-1,)), x.t().flip(0))
print(x.roll(1), torch.roll(x, 1, 1), x.roll(-1, 0), x.roll((1, 2), (0, 1)), x.roll(shifts=4, dims=1))
try:
    x.repeat(2)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.roll((1, 2), 0)
except RuntimeError as e:
    print(type(e).__name__, e)
w = torch.ones(2, requires_grad=True)
print(w.repeat(2), w.flip(0), w.roll(1))
print(x.repeat_interleave(2), x.repeat_interleave(2, dim=1), torch.repeat_interleave(x, torch.tensor([1, 2]), dim=0))
print(torch.repeat_interleave(torch.tensor([2, 0, 1])), x.repeat_interleave(torch.tensor(3), 0).shape,
      torch.tensor(5).repeat_interleave(2))
try:
    x.repeat_interleave(-1)
except RuntimeError as e:
    print(type(e).__name__, e)
print(w.repeat_interleave(2), w.repeat_interleave(torch.tensor([1, 2])))
