# requires_grad, grad_fn, is_leaf, detach and requires_grad_ as PyTorch shows them.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
print(w.requires_grad, w.is_leaf, w.grad_fn, w.grad)
y = w * 2
print(y, y.requires_grad, y.is_leaf, type(y.grad_fn).__name__ != "NoneType", y.grad_fn.name())
z = (w + 1).sum()
print(z)
d = y.detach()
print(d, d.requires_grad, d.is_leaf)
p = torch.ones(2)
print(p.requires_grad_(), p.requires_grad, p.requires_grad_(False).requires_grad)
p.requires_grad = True
print(p)
q = torch.ones(2) + w
print(q.grad_fn.name(), (torch.ones(2) + torch.ones(2)).grad_fn)
with torch.no_grad():
    n = w * 2
print(n, n.requires_grad)
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    y.requires_grad = False
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    w.add_(1)
except RuntimeError as e:
    print(type(e).__name__, e)
with torch.no_grad():
    w.add_(1)
print(w)
print(w.data, w.data.requires_grad)
