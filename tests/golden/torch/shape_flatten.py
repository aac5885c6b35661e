# flatten and unflatten.
import torch

x = torch.arange(24).reshape(2, 3, 4)
print(x.flatten().shape, x.flatten(1).shape, torch.flatten(x, 0, 1).shape, x.flatten(-2).shape,
      x.flatten(start_dim=1, end_dim=-1).shape, torch.tensor(3).flatten())
print(x.flatten(1)[1])
print(x.transpose(0, 1).flatten(1).shape, x.transpose(1, 2).flatten().is_contiguous())
y = torch.arange(12)
print(y.unflatten(0, (3, 4)).shape, torch.unflatten(y, 0, (2, -1)).shape, x.unflatten(2, (2, 2)).shape)
print(y.unflatten(-1, [2, 2, 3]).shape)
for bad in [lambda: x.flatten(2, 1), lambda: y.unflatten(0, (5, 2))]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
w = torch.ones(2, 2, requires_grad=True)
print(w.flatten(), w.flatten().unflatten(0, (2, 2)))
