# copy.deepcopy of tensors and nn.Modules: the data is cloned (changing the copy leaves the
# original), parameters stay Parameters with their requires_grad; copy.copy of a module
# shares its submodules.
import copy

import torch
import torch.nn as nn

t = torch.tensor([1.0, 2.0, 3.0])
d = copy.deepcopy(t)
d[0] = 10.0
print(t, d, d.dtype, d.shape)
g = torch.ones(2, requires_grad=True)
print(copy.deepcopy(g).requires_grad, copy.deepcopy(torch.zeros(2)).requires_grad)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
twin = copy.deepcopy(model)
print(type(twin).__name__, type(twin[0]).__name__, twin[0] is not model[0])
print(type(twin[0].weight).__name__, twin[0].weight.requires_grad)
print(torch.equal(twin[0].weight, model[0].weight))
with torch.no_grad():
    twin[0].weight.fill_(0.5)
print(torch.equal(twin[0].weight, model[0].weight), twin[0].weight[0].tolist())
x = torch.ones(1, 3)
print(twin(x).shape)
shallow = copy.copy(model)
print(shallow is not model, shallow[0] is model[0])
print(copy.deepcopy({"w": t})["w"].tolist())
