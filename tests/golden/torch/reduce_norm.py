# norm with p-values, dims and keepdim.
import torch

x = torch.tensor([[3.0, -4.0], [1.0, 2.0]])
print(x.norm(), torch.norm(x), x.norm(1), x.norm(p=2, dim=1), x.norm(float("inf"), dim=0))
print(x.norm(p="fro"), x.norm(dim=1, keepdim=True), x.norm(0.5), x.norm(float("-inf")))
print(torch.norm(x, p=3, dim=(0, 1)), x.norm(dtype=torch.float64))
print(x.requires_grad_().norm(), x.norm(dim=0))
