# unsqueeze and squeeze (all, one dim, a tuple of dims).
import torch

x = torch.arange(6.0).reshape(1, 2, 1, 3)
print(x.squeeze().shape, x.squeeze(0).shape, x.squeeze(1).shape, x.squeeze(-2).shape,
      x.squeeze((0, 2)).shape, torch.squeeze(x, dim=(0, 1)).shape)
y = torch.arange(3.0)
print(y.unsqueeze(0).shape, y.unsqueeze(1).shape, y.unsqueeze(-1).shape, torch.unsqueeze(y, 1))
print(y[None].shape, y[:, None].shape, torch.tensor(1.0).unsqueeze(0), torch.tensor([7]).squeeze())
print(x.squeeze().unsqueeze(0).unsqueeze(-1).shape)
try:
    y.unsqueeze(2)
except IndexError as e:
    print(type(e).__name__, e)
w = torch.ones(1, 2, requires_grad=True)
print(w.squeeze(), w.squeeze(0), w.unsqueeze(0), w.squeeze((0,)))
