# Calls flagged inplace (F.relu(x, inplace=True), nn.ReLU(inplace=True), F.dropout(...,
# inplace=True) in eval) under torch.compile: later uses see the written value, and a graph
# input they write is written for the caller, on the first call and on cache hits.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
relu = nn.ReLU(inplace=True)


def on_intermediate(x):
    return F.relu(torch.sin(x) - 0.5, inplace=True) * 2


def module_on_intermediate(x):
    y = x * 3
    relu(y)
    return y + 1


def on_input(x):
    y = F.relu(x, inplace=True)
    return y * 2


def module_on_input(x):
    return relu(x) + 1


def block(x, w):
    h = F.relu(F.conv2d(x, w, padding=1), inplace=True)
    return F.max_pool2d(h, 2).sum(dim=(2, 3))


for fn in (on_intermediate, module_on_intermediate, on_input, module_on_input):
    compiled = torch.compile(fn)
    for call in range(2):
        x = torch.tensor([-1.0, 2.0, -3.0, 4.0])
        expected_input = x.clone()
        expected = fn(expected_input)
        x = torch.tensor([-1.0, 2.0, -3.0, 4.0])
        out = compiled(x)
        print(fn.__name__, call, torch.allclose(out, expected), torch.equal(x, expected_input))
x = torch.randn(2, 3, 8, 8)
w = torch.randn(4, 3, 3, 3)
print("block", torch.allclose(torch.compile(block)(x, w), block(x, w), atol=1e-4))
