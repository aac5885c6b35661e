# F.linear with and without bias, batched inputs, dtype errors.
import torch
import torch.nn.functional as F

x = torch.arange(6.0).reshape(2, 3)
w = torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]])
b = torch.tensor([10.0, 20.0])
print(F.linear(x, w), F.linear(x, w, b), F.linear(torch.ones(3), w, b))
print(F.linear(torch.ones(4, 2, 3), w, b).shape, F.linear(x.double(), w.double()).dtype)
print(F.linear(x.requires_grad_(), w, b), F.linear(x, w))
try:
    F.linear(x, w.t())
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.linear(x, w.double())
except RuntimeError as e:
    print(type(e).__name__, e)
