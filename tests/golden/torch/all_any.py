# all / any over everything, one dim, several dims, with keepdim.
import torch

x = torch.tensor([[True, False, True], [True, True, True]])
print(x.all(), x.any(), torch.all(x, dim=1), torch.any(x, 0), x.all(1, keepdim=True))
print(torch.all(x, dim=(0, 1)), x.any(dim=(1,)), torch.all(torch.tensor([])))
f = torch.tensor([[0.0, 1.5], [2.0, 3.0]])
print(f.all(), f.any(), f.all(0), (f > 1).any(1))
i = torch.tensor([0, 3, 0])
print(i.all(), i.any(), torch.any(torch.zeros(2, 0), 1))
print(bool(x.any()), bool(x.all()))
if (f > 0).any():
    print("some positive")
