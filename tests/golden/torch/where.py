# torch.where with tensors and scalars, broadcasting, and the one-argument form.
import torch

x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
print(torch.where(x > 0, x, torch.zeros_like(x)))
print(torch.where(x > 0, x, 0.0), torch.where(x > 0, 1, 0), torch.where(x > 0, 1.0, 0))
print(torch.where(x > 0, x, torch.tensor([10.0, 20.0, 30.0])))
print(x.where(x < 0, -1.0))
i = torch.tensor([1, 2, 3], dtype=torch.int32)
print(torch.where(i > 1, i, 5), torch.where(i > 1, i, 5.5), torch.where(i > 1, i, torch.tensor(0)))
print(torch.where(x > 0))
print(torch.where(torch.tensor([0, 3, 0, 7])))
print(torch.where(torch.tensor(True), torch.tensor(1.0), torch.tensor(2.0)))
try:
    torch.where(x, x, x)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.where(x > 0, x, torch.zeros(4))
except RuntimeError as e:
    print(type(e).__name__, e)
