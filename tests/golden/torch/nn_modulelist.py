# nn.ModuleList and nn.ModuleDict: printing (repeated blocks collapse), indexing, iteration.
import torch
import torch.nn as nn

layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
print(layers, len(layers))
layers.append(nn.ReLU())
layers.extend([nn.Linear(4, 2), nn.Linear(4, 2)])
print(layers)
print(layers[0], layers[-1], type(layers[1:3]).__name__, len(layers[1:3]))
x = torch.ones(1, 4)
for layer in layers[:4]:
    x = layer(x)
print(x.shape)
print(nn.ModuleList(), nn.ModuleList([nn.ReLU(), nn.GELU(), nn.ReLU()]))
md = nn.ModuleDict({"a": nn.Linear(1, 2), "b": nn.ReLU()})
print(md, len(md), list(md.keys()), "a" in md, md["b"])
print([n for n, _ in md.named_parameters()])
try:
    layers[10]
except IndexError as e:
    print(type(e).__name__, e)
