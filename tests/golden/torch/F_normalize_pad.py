# F.normalize and F.pad (constant mode, negative padding crops).
import torch
import torch.nn.functional as F

x = torch.tensor([[3.0, 4.0, 0.0], [1.0, 1.0, 1.0]])
print(F.normalize(x), F.normalize(x, dim=0), F.normalize(x, p=1, dim=1), F.normalize(torch.zeros(2, 2)))
print(F.pad(x, (1, 2)), F.pad(x, (0, 0, 1, 0), value=-1.0), F.pad(x, [1, 1, 1, 1], "constant", 0.5))
print(F.pad(x, (-1, 1)), F.pad(torch.arange(4).reshape(2, 2), (1, 0)), F.pad(x, (0, 0)).shape)
print(F.pad(torch.ones(1, 2, 2), (1, 1, 0, 0, 1, 0)).shape)
for bad in [lambda: F.pad(x, (1,)), lambda: F.pad(x, (1, 1, 1, 1, 1, 1)), lambda: F.pad(x, (-2, -2))]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
w = x.clone().requires_grad_()
print(F.pad(w, (1, 1)), F.normalize(w))
