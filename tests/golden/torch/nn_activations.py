# Activation modules and their printing.
import torch
import torch.nn as nn

x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0])
for m in [nn.ReLU(), nn.ReLU(inplace=True), nn.GELU(), nn.GELU(approximate="tanh"), nn.SiLU(),
          nn.SiLU(inplace=True), nn.Sigmoid(), nn.Tanh(), nn.Softmax(dim=0), nn.Softmax(),
          nn.LogSoftmax(dim=-1)]:
    print(m, m(x.clone()))
y = x.clone()
nn.ReLU(inplace=True)(y)
print(y)
print(nn.Softmax(dim=1)(torch.tensor([[1.0, 2.0], [3.0, 5.0]])))
print(nn.GELU()(x.requires_grad_()))
for m in [nn.LeakyReLU(), nn.LeakyReLU(0.2, inplace=True), nn.Flatten(), nn.Flatten(0, 1), nn.Unflatten(1, (2, 2))]:
    print(m)
print(nn.LeakyReLU(0.1)(x), nn.Flatten()(torch.ones(2, 3, 4)).shape, nn.Unflatten(1, (2, 2))(torch.ones(3, 4)).shape)
