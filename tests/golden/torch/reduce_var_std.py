# var and std with unbiased= and correction=, over dims, and std_mean / var_mean.
import torch

x = torch.tensor([[1.0, 2.0, 4.0, 8.0], [3.0, 3.0, 3.0, 3.0]])
print(x.var(), x.std(), torch.var(x, 1), torch.std(x, 0))
print(x.var(1, unbiased=False), x.std(unbiased=False), x.var(False), x.std(True))
print(x.var(dim=1, correction=0), x.std(dim=1, correction=2), x.var(1, keepdim=True))
print(torch.var(x, (0, 1)), x.std(dim=[0, 1], keepdim=True), x.var(1, True, True))
print(torch.std_mean(x), torch.var_mean(x, 1), torch.var_mean(x, dim=0, correction=0))
print(torch.tensor([5.0]).var(), torch.tensor([5.0]).std(unbiased=False))
print(torch.tensor([1.0, 2.0], dtype=torch.float64).std(), torch.tensor([1.0, 2.0], dtype=torch.float16).var())
try:
    torch.tensor([1, 2]).var()
except RuntimeError as e:
    print(type(e).__name__, e)
w = x.clone().requires_grad_()
print(w.var(), w.std(1))
