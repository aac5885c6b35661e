# maximum, minimum, atan2, lerp (binary ops that take only tensors, plus lerp's weight).
import torch

a = torch.tensor([1.0, 5.0, float("nan"), -2.0])
b = torch.tensor([3.0, 2.0, 1.0, -2.0])
print(torch.maximum(a, b), torch.minimum(a, b), a.maximum(b), b.minimum(a))
print(torch.maximum(torch.tensor([1, 5]), torch.tensor([2.5, 1.0])))
print(torch.maximum(torch.tensor([[1], [4]]), torch.tensor([2, 3])))
print(torch.atan2(torch.tensor([1.0, -1.0, 0.0]), torch.tensor([1.0, 1.0, -1.0])),
      torch.arctan2(torch.tensor([1.0]), torch.tensor([2.0])))
try:
    torch.maximum(a, 2)
except TypeError as e:
    print(type(e).__name__, e)
s = torch.tensor([0.0, 10.0])
e = torch.tensor([10.0, 20.0])
print(torch.lerp(s, e, 0.5), s.lerp(e, torch.tensor([0.1, 0.9])), torch.lerp(s, e, 2.0))
s.lerp_(e, 0.25)
print(s)
try:
    torch.lerp(torch.tensor([1, 2]), torch.tensor([3, 4]), 0.5)
except RuntimeError as e:
    print(type(e).__name__, e)
