# The losses a training script uses, eager and compiled: binary_cross_entropy and
# binary_cross_entropy_with_logits (weight, pos_weight, every reduction) by float64 gradcheck with
# PyTorch's node names and extreme logits; nn.BCEWithLogitsLoss, nn.CrossEntropyLoss
# (ignore_index) and nn.MSELoss as modules inside compiled training steps, trained by SGD.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import gradcheck
torch.manual_seed(0)
p = torch.rand(3, 4, dtype=torch.float64).clamp(0.05, 0.95).requires_grad_()
t = torch.rand(3, 4, dtype=torch.float64)
w = torch.rand(3, 4, dtype=torch.float64)
pw = torch.rand(4, dtype=torch.float64) + 0.5
x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
print("bce", gradcheck(lambda a: F.binary_cross_entropy(a, t), (p,)), F.binary_cross_entropy(p, t).grad_fn.name())
for red in ("mean", "sum", "none"):
    print("bce logits", red, gradcheck(lambda a: F.binary_cross_entropy_with_logits(a, t, reduction=red), (x,)),
          gradcheck(lambda a: F.binary_cross_entropy_with_logits(a, t, weight=w, pos_weight=pw, reduction=red), (x,)))
print(F.binary_cross_entropy_with_logits(x, t).grad_fn.name())
big = torch.tensor([-200.0, -30.0, 0.0, 30.0, 200.0])
print(F.binary_cross_entropy_with_logits(big, torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0]), reduction="none"))
loss_fn = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))
print(loss_fn, loss_fn(torch.tensor([0.5, -1.0]), torch.tensor([1.0, 0.0])))
model = nn.Linear(4, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.1, -0.2, 0.3, -0.4]]))
    model.bias.fill_(0.05)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
data = torch.sin(torch.arange(128.0).reshape(32, 4) * 0.37)
labels = (data[:, :1] + data[:, 1:2] > 0).float()
crit = nn.BCEWithLogitsLoss()
step = torch.compile(lambda: crit(model(data), labels))
for i in range(30):
    opt.zero_grad()
    loss = step()
    loss.backward()
    opt.step()
    if i % 10 == 9:
        print(i, round(loss.item(), 4))
print("acc", ((model(data) > 0).float() == labels).float().mean().item())

# The other loss modules compile too (nn.MSELoss, nn.CrossEntropyLoss with ignore_index).
head = nn.Linear(4, 3)
with torch.no_grad():
    head.weight.copy_(torch.cos(torch.arange(12.0).reshape(3, 4)) * 0.3)
    head.bias.zero_()
classes = torch.remainder(torch.arange(32), 3)
classes[5] = -1
ce = nn.CrossEntropyLoss(ignore_index=-1)
mse = nn.MSELoss(reduction="sum")
both = torch.compile(lambda: ce(head(data), classes) + 0.01 * mse(head(data), torch.ones(32, 3)))
opt = torch.optim.SGD(head.parameters(), lr=0.2)
for i in range(20):
    opt.zero_grad()
    loss = both()
    loss.backward()
    opt.step()
    if i % 5 == 4:
        print("ce+mse", i, round(loss.item(), 4))
print("head grad norm", round(head.weight.grad.norm().item(), 4))
