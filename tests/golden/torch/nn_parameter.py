# nn.Parameter: printing, requires_grad, arithmetic results are plain tensors.
import torch
import torch.nn as nn

p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(repr(p), p.requires_grad, p.is_leaf, type(p).__name__, isinstance(p, torch.Tensor))
q = nn.Parameter(torch.ones(2, 2), requires_grad=False)
print(q, q.requires_grad)
r = p * 2
print(r, type(r).__name__)
print(p.data, type(p.data).__name__, p.detach())
print(nn.Parameter(torch.arange(3.0).reshape(3, 1)))
print([p], (p,))
try:
    nn.Parameter(torch.tensor([1, 2]))
except RuntimeError as e:
    print(type(e).__name__, e)
print(nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
print(p.shape, p.sum(), p[0], p.dtype)
