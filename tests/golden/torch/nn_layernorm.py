# nn.LayerNorm and F.layer_norm.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 6.0]])
ln = nn.LayerNorm(4)
print(ln, ln.weight, ln.bias, ln.normalized_shape, ln.eps)
print(ln(x))
ln2 = nn.LayerNorm([2, 4], eps=1e-3, elementwise_affine=False)
print(ln2, ln2.weight, ln2(x))
ln3 = nn.LayerNorm(4, bias=False)
print(ln3, [n for n, _ in ln3.named_parameters()])
with torch.no_grad():
    ln.weight.copy_(torch.tensor([1.0, 2.0, 0.5, 0.0]))
    ln.bias.fill_(1.0)
print(ln(x))
print(F.layer_norm(x, (4,)), F.layer_norm(x, [4], torch.ones(4) * 2, torch.zeros(4), eps=0.1))
print(F.layer_norm(x.half(), (4,)), F.layer_norm(x.double(), (2, 4)))
try:
    F.layer_norm(x, (3,))
except RuntimeError as e:
    print(type(e).__name__, e)
