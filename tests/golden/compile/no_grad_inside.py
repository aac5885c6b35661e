# `with torch.no_grad():` inside a compiled function: the graph still compiles, and results keep
# the grad mode each part ran under.
import torch
def f(x):
    with torch.no_grad():
        y = x.sin() * 2
    return y + 1
x = torch.randn(8, requires_grad=True)
out = torch.compile(f)(x)
print(out.requires_grad, torch.allclose(out, f(x)))
def g(x):
    with torch.no_grad():
        y = x * 2
    return y + x
out = torch.compile(g)(x)
print(out.requires_grad, out.grad_fn is not None, torch.allclose(out, g(x)))
