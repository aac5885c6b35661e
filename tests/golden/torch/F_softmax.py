# F.softmax / F.log_softmax with dim, dtype and masked inputs.
import torch
import torch.nn.functional as F

x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]])
print(F.softmax(x, dim=-1), F.softmax(x, 0), F.log_softmax(x, dim=1), F.log_softmax(x, 0, dtype=torch.float64))
print(F.softmax(x.masked_fill(torch.tensor([False, True, False]), float("-inf")), dim=-1))
print(F.softmax(torch.tensor([0.0, 0.0, 0.0, 0.0]), dim=0), F.softmax(x, dim=1, dtype=torch.float16))
print(F.softmax(torch.arange(24.0).reshape(2, 3, 4) / 10, dim=1).sum(1))
print(F.softmax(x.requires_grad_(), dim=1))
