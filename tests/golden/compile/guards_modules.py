# Guards on modules, methods, globals and containers: what makes a compiled function recompile.
import torch
import torch.nn as nn

compiles = []


def backend(gm, example_inputs):
    compiles.append(len(compiles))
    return gm.forward


class Scaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(self.fc(x))

    def double(self, x):
        return self.fc(x) * 2


torch.manual_seed(0)
m = Scaler()
cm = torch.compile(m, backend=backend)
x = torch.randn(2, 4)
m.eval()
a = cm(x)
print("eval:", len(compiles), torch.allclose(a, m(x)))
cm(x)
print("same mode:", len(compiles))
m.train()
cm(x)
print("train mode recompiles:", len(compiles))

bound = torch.compile(m.double, backend=backend)
before = len(compiles)
print(torch.allclose(bound(x), m.fc(x) * 2), len(compiles) - before)

SCALE = 2.0


def uses_global(x):
    return x * SCALE


cg = torch.compile(uses_global, backend=backend)
before = len(compiles)
cg(x)
cg(x)
SCALE = 3.0
print(torch.allclose(cg(x), x * 3.0), "global change:", len(compiles) - before)


def uses_list(xs):
    return xs[0] + xs[1]


cl = torch.compile(uses_list, backend=backend)
before = len(compiles)
cl([x, x])
cl([x, x])
cl([x, x, x])
print("list length change:", len(compiles) - before)


def uses_str(x, how):
    if how == "double":
        return x * 2
    return x


cs = torch.compile(uses_str, backend=backend)
before = len(compiles)
cs(x, "double")
cs(x, "double")
print(torch.allclose(cs(x, "same"), x), "str change:", len(compiles) - before)


def uses_none(x, bias=None):
    if bias is None:
        return x
    return x + bias


cn = torch.compile(uses_none, backend=backend)
before = len(compiles)
cn(x)
cn(x, x)
cn(x)
print("None vs tensor:", len(compiles) - before)
