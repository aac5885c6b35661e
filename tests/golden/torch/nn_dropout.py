# nn.Dropout / F.dropout: identity in eval mode and for p=0, zeros for p=1, scaling in training.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.ones(1000)
d = nn.Dropout(0.5)
print(d, d.p, d.training, nn.Dropout(), nn.Dropout(p=0.1, inplace=True))
y = d(x)
print(y.shape, bool(((y == 0) | (y == 2)).all()), round((y == 0).float().mean().item(), 1))
d.eval()
print(torch.equal(d(x), x), d.training)
print(torch.equal(F.dropout(x, 0.0), x), F.dropout(x, 1.0).sum(), torch.equal(F.dropout(x, 0.5, training=False), x))
z = torch.ones(4)
F.dropout(z, 1.0, inplace=True)
print(z)
for bad in [lambda: nn.Dropout(1.5), lambda: F.dropout(x, -0.1)]:
    try:
        bad()
    except ValueError as e:
        print(type(e).__name__, e)
print(F.dropout(torch.ones(3, requires_grad=True), 0.0))
