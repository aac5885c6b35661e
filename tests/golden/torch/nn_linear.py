# nn.Linear: printing, parameter shapes, init bounds, forward with known weights.
import math
import torch
import torch.nn as nn

torch.manual_seed(0)
lin = nn.Linear(4, 3)
print(lin, lin.in_features, lin.out_features)
print(lin.weight.shape, lin.bias.shape, lin.weight.dtype, lin.weight.requires_grad, type(lin.weight).__name__)
bound = 1 / math.sqrt(4)
print(bool((lin.weight.abs() <= bound).all()), bool((lin.bias.abs() <= bound).all()))
with torch.no_grad():
    lin.weight.copy_(torch.arange(12.0).reshape(3, 4) / 10)
    lin.bias.fill_(0.5)
x = torch.arange(8.0).reshape(2, 4)
print(lin(x))
print(lin(torch.ones(4)), lin(torch.ones(2, 5, 4)).shape)
nb = nn.Linear(2, 2, bias=False)
print(nb, nb.bias, [n for n, _ in nb.named_parameters()])
d = nn.Linear(3, 2, dtype=torch.float64)
print(d.weight.dtype, d(torch.ones(3, dtype=torch.float64)).dtype)
with torch.no_grad():
    print(lin(x))
try:
    lin(torch.ones(2, 5))
except RuntimeError as e:
    print(type(e).__name__, e)
print(nn.Linear(1, 1, True), nn.Identity()(x).shape, nn.Identity())
print(type(lin), nn.Linear, nn.Module, nn.Sequential, type(nn.Parameter(torch.ones(1))))
print(nn.Linear.__module__, nn.LayerNorm.__module__, nn.ReLU.__module__, nn.ModuleList.__module__)
