# prod over all elements or one dim, with dtype.
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(x.prod(), torch.prod(x, 0), x.prod(1, keepdim=True), x.prod(dtype=torch.float64))
i = torch.tensor([2, 3, 4])
print(i.prod(), i.prod().dtype, i.int().prod().dtype, torch.tensor([True, False]).prod())
print(torch.zeros(0).prod(), torch.prod(i, 0, dtype=torch.float32))
print(x.requires_grad_().prod(), x.prod(1))
