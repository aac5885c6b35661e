# Second derivatives through reductions (issue 16): a sum's gradient is an expanded view made
# contiguous; under create_graph that copy must stay in the graph, or the gradient of
# autograd.grad(s * s, x, create_graph=True) silently loses its history. Gradient penalties and
# non-leaf targets, as PyTorch 2.11 computes them.
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
def check(name, f):
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    print(name, g.requires_grad)
check("sum*3", lambda x: x.sum() * 3)
check("sum^2 pow", lambda x: x.sum() ** 2)
check("sum*sum", lambda x: x.sum() * x.sum())
check("s*s", lambda x: (lambda s: s * s)(x.sum()))
check("(x*2).sum()", lambda x: (x * 2).sum())
check("((x*2).sum())^2", lambda x: (x * 2).sum() ** 2)
check("mean*mean", lambda x: (lambda s: s * s)(x.mean()))
check("x*x sum", lambda x: (x * x).sum())
check("s*x", lambda x: (x.sum() * x).sum())
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
s = (x * 2).sum()
(g,) = torch.autograd.grad(s * s, x, create_graph=True)
print(g, g.requires_grad, g.grad_fn is not None)
g.sum().backward()
print(x.grad)
# gradient penalty
w = torch.tensor([[0.5, -1.0], [2.0, 0.3]], requires_grad=True)
inp = torch.tensor([[1.0, 2.0]], requires_grad=True)
out = (inp @ w).tanh().sum()
(gi,) = torch.autograd.grad(out, inp, create_graph=True)
pen = ((gi.norm(2, dim=1) - 1) ** 2).mean()
pen.backward()
print(w.grad)
# non-leaf
y = x * 3
z = (y ** 3).sum()
(gy,) = torch.autograd.grad(z, y, create_graph=True)
print(gy.requires_grad)
gy.sum().backward()
print(x.grad)
