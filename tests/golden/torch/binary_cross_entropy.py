# F.binary_cross_entropy and nn.BCELoss (eager, weighted, the input-range and size checks, compiled against eager), and torch._assert.
import torch
import torch.nn as nn
import torch.nn.functional as F
p = torch.tensor([0.25, 0.5, 0.75, 1.0, 0.0])
t = torch.tensor([0.0, 1.0, 1.0, 1.0, 1.0])
print(round(F.binary_cross_entropy(p, t, reduction="sum").item(), 4))
print([round(v, 4) for v in F.binary_cross_entropy(p, t, reduction="none").tolist()])
print(round(nn.BCELoss()(p, t).item(), 4), round(nn.BCELoss(weight=torch.full((5,), 2.0))(p, t).item(), 4))
for bad in (torch.tensor([1.5]), torch.tensor([0.5, 0.5])):
    try:
        F.binary_cross_entropy(bad, torch.tensor([1.0]))
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
f = torch.compile(lambda p, t: F.binary_cross_entropy(torch.sigmoid(p), t))
x = torch.linspace(-3, 3, 12).reshape(3, 4)
y = (torch.arange(12.0).reshape(3, 4) % 2)
print(torch.allclose(f(x, y), F.binary_cross_entropy(torch.sigmoid(x), y)))
torch._assert(True, "fine")
try:
    torch._assert(1 > 2, "sizes differ")
except AssertionError as e:
    print("AssertionError", e)
