# cross_entropy against class probabilities: float64 gradchecks for every reduction, class
# weights, label smoothing, 1-D and 3-D inputs, and the targets' own gradient.
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck
torch.manual_seed(0)
x = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
p = torch.softmax(torch.randn(4, 5, dtype=torch.float64), 1)
w = torch.rand(5, dtype=torch.float64)
for red in ("mean", "sum", "none"):
    print("ce probs", red, gradcheck(lambda a: F.cross_entropy(a, p, reduction=red), (x,)),
          gradcheck(lambda a: F.cross_entropy(a, p, weight=w, reduction=red, label_smoothing=0.1), (x,)))
print(F.cross_entropy(x, p).grad_fn.name())
xd = torch.sin(torch.arange(20.0, dtype=torch.float64)).reshape(4, 5).requires_grad_()
pd = torch.softmax(torch.cos(torch.arange(20.0, dtype=torch.float64)).reshape(4, 5), 1)
wd = torch.linspace(0.5, 1.5, 5, dtype=torch.float64)
loss = F.cross_entropy(xd, pd, weight=wd, label_smoothing=0.2)
loss.backward()
print(round(loss.item(), 6), xd.grad[0])
x2 = torch.tensor([0.0, 1.0, 2.0], dtype=torch.float64, requires_grad=True)
p2 = torch.tensor([[0.2, 0.3, 0.5]], dtype=torch.float64)
x3 = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
p3 = torch.softmax(torch.randn(2, 3, 4, dtype=torch.float64), 1)
print("ce probs 3d", gradcheck(lambda a: F.cross_entropy(a, p3), (x3,)))
t = torch.softmax(torch.randn(4, 5, dtype=torch.float64), 1).requires_grad_()
print("ce probs target", gradcheck(lambda a, b: F.cross_entropy(a, b, label_smoothing=0.3), (x, t)))
