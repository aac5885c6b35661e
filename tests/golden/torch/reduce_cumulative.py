# logsumexp, cumsum and cumprod.
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]])
print(torch.logsumexp(x, 1), x.logsumexp(0), x.logsumexp((0, 1)), x.logsumexp(1, keepdim=True))
print(torch.logsumexp(torch.tensor([1000.0, 1000.0]), 0), torch.logsumexp(torch.tensor([1, 2]), 0))
print(torch.cumsum(x, 1), x.cumsum(0), x.cumprod(1), torch.cumprod(x, dim=0))
i = torch.tensor([1, 2, 3, 4])
print(i.cumsum(0), i.cumprod(0), i.int().cumsum(0).dtype, i.cumsum(0, dtype=torch.float32))
print(torch.tensor([True, True, False]).cumsum(0))
y = x.clone()
y.cumsum_(1)
print(y)
print(x.requires_grad_().cumsum(1), x.logsumexp(1))
