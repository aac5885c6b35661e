# clamp / clip with numbers or tensors, clamp_min / clamp_max, and the in-place forms.
import torch

x = torch.tensor([-2.0, -0.5, 0.5, 2.0])
print(torch.clamp(x, -1, 1), x.clamp(min=0), x.clamp(max=0.0), torch.clip(x, -0.75, 0.75))
print(x.clamp(torch.tensor([0.0, 0.0, 1.0, 1.0]), torch.tensor([1.0, 1.0, 1.5, 1.5])))
print(x.clamp(min=torch.tensor(0.0)), x.clamp_min(0.0), x.clamp_max(torch.tensor(1.0)))
i = torch.tensor([1, 5, 10])
print(i.clamp(2, 8), i.clamp(2.5), torch.clamp(i, max=3).dtype, i.clamp(torch.tensor(3)))
print(torch.clamp(x, 1, -1))
y = x.clone()
print(y.clamp_(-1, 1), y, y.clamp_min_(0.0), y.clip_(max=0.5), torch.clamp_(y, 0.25))
j = i.clone()
try:
    j.clamp_(0.5, 2.5)
except RuntimeError as e:
    print(type(e).__name__, e)
print(j.clamp_(0.5, 2.5) if False else j)
try:
    torch.clamp(x)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.tensor([True, False]).clamp(0, 1)
except (RuntimeError, NotImplementedError) as e:
    print(type(e).__name__, e)
w = torch.tensor([1.0, 3.0], requires_grad=True)
print(w.clamp(0, 2), w.clamp(min=torch.tensor(1.5)), w.clamp_min(2), w.clamp_max(2),
      w.clamp_min(torch.tensor(2.0)))
