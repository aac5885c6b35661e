# softmax / log_softmax as torch functions and methods, with dtype.
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
print(torch.softmax(x, 1), x.softmax(0), torch.log_softmax(x, dim=-1), x.log_softmax(1))
print(x.softmax(-1, dtype=torch.float64), torch.softmax(x.half(), 1))
print(torch.softmax(torch.tensor([1000.0, 0.0]), 0), torch.log_softmax(torch.tensor([1000.0, 0.0]), 0))
print(torch.softmax(torch.tensor([float("-inf"), 0.0]), 0), torch.softmax(torch.tensor(2.0), 0))
print(x.softmax(1).sum(1))
try:
    torch.softmax(x)
except TypeError as e:
    print(type(e).__name__, e)
try:
    torch.softmax(torch.tensor([1, 2]), 0)
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.softmax(torch.tensor([1, 2]), 0, dtype=torch.float32))
print(x.requires_grad_().softmax(1))
