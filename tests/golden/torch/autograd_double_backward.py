# Second derivatives through the derivatives that read their op's output (tanh, exp, sigmoid,
# sqrt, rsqrt, reciprocal, exp2, expm1, tan, pow, softmax, log_softmax, std): with
# create_graph=True the saved output leads back to its node, so the gradient is differentiable
# again (float64 gradchecks of the first gradient, as gradgradcheck does) and a gradient penalty
# trains as in PyTorch.
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck

torch.manual_seed(0)
def r(*s):
    return torch.randn(*s, dtype=torch.float64, requires_grad=True)

weights = torch.linspace(-1.0, 1.5, 12, dtype=torch.float64).reshape(3, 4)

def first_grad(fn):
    def g(a):
        out, = torch.autograd.grad((fn(a) * weights).sum(), a, create_graph=True)
        return out
    return g

x = r(3, 4)
pos = (torch.rand(3, 4, dtype=torch.float64) + 0.5).requires_grad_()
cases = [
    ("tanh", torch.tanh, x), ("exp", torch.exp, x), ("sigmoid", torch.sigmoid, x),
    ("sqrt", torch.sqrt, pos), ("rsqrt", torch.rsqrt, pos), ("reciprocal", torch.reciprocal, pos),
    ("exp2", torch.exp2, x), ("expm1", torch.expm1, x), ("tan", lambda a: torch.tan(a * 0.3), x),
    ("pow", lambda a: torch.pow(a, 3), x), ("pow tensor exponent", lambda a: torch.pow(pos.detach(), a), x),
    ("softmax", lambda a: torch.softmax(a, 1), x), ("log_softmax", lambda a: F.log_softmax(a, 0), x),
    ("std", lambda a: a.std(1, keepdim=True), x),
]
for name, fn, inp in cases:
    g = first_grad(fn)(inp)
    print(name, g.requires_grad, gradcheck(first_grad(fn), (inp,)))

# A gradient penalty: the input gradient's norm is part of the loss.
w = torch.linspace(-0.5, 0.5, 6).reshape(2, 3).requires_grad_()
inp = torch.linspace(-1.0, 1.0, 8).reshape(4, 2).requires_grad_()
for step in range(3):
    out = torch.tanh(inp @ w).exp().sum()
    g, = torch.autograd.grad(out, inp, create_graph=True)
    loss = out + (g * g).sum()
    w.grad = None
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
    print(step, round(loss.item(), 4), [round(v, 4) for v in w.grad.flatten().tolist()])
