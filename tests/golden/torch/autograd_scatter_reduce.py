# Derivatives of scatter_reduce with 'prod', 'mean', 'amax' and 'amin', with and without
# include_self: float64 gradchecks, products with one and with two zeros in a group, maxima shared
# among ties, the gradients of deterministic inputs, node names; scatter's deprecated reduce=
# form, which PyTorch cannot differentiate; round(decimals=), whose gradient is zero.
import torch
from torch.autograd import gradcheck

torch.manual_seed(0)
def r(*s):
    return torch.randn(*s, dtype=torch.float64, requires_grad=True)

index = torch.tensor([[0, 1, 2, 0], [2, 0, 1, 0]])
x = r(3, 4)
src = r(2, 4)
for reduce in ["prod", "mean", "amax", "amin"]:
    for include_self in [True, False]:
        ok = gradcheck(lambda a, s: a.scatter_reduce(0, index, s, reduce, include_self=include_self), (x, src))
        print(reduce, include_self, ok)
print("dim 1", gradcheck(lambda a, s: a.scatter_reduce(1, torch.tensor([[0, 0, 1], [2, 1, 1], [0, 2, 2]]), s, "prod"), (x, r(3, 3))))

# Products with zeros: one zero in a group (its gradient is the product of the others), two.
self0 = torch.tensor([[2.0, 0.0, 3.0], [1.0, 4.0, 0.5]], dtype=torch.float64)
src0 = torch.tensor([[0.0, 5.0, 2.0], [3.0, 0.0, 0.0]], dtype=torch.float64)
idx0 = torch.tensor([[0, 1, 1], [0, 1, 1]])
for include_self in [True, False]:
    a = self0.clone().requires_grad_()
    s = src0.clone().requires_grad_()
    out = a.scatter_reduce(0, idx0, s, "prod", include_self=include_self)
    (out * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=torch.float64)).sum().backward()
    print("prod zeros", include_self, out.detach(), a.grad, s.grad)
print("one zero", gradcheck(lambda a, s: a.scatter_reduce(0, idx0, s, "prod"), (self0.clone().requires_grad_(), torch.tensor([[0.0, 5.0, 2.0], [3.0, 1.5, 0.0]], dtype=torch.float64, requires_grad=True))))

# Ties share the gradient of a maximum (self and source alike).
for reduce in ["amax", "amin"]:
    for include_self in [True, False]:
        a = torch.tensor([[1.0, 5.0, 2.0], [3.0, 5.0, 2.0]], requires_grad=True)
        s = torch.tensor([[3.0, 5.0, 2.0], [1.0, 5.0, 7.0]], requires_grad=True)
        out = a.scatter_reduce(0, torch.tensor([[0, 0, 1], [0, 1, 1]]), s, reduce, include_self=include_self)
        (out * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
        print(reduce, include_self, out.detach(), a.grad, s.grad)

# Means count the elements of each group (self's too unless include_self=False).
for include_self in [True, False]:
    a = torch.arange(6.0).reshape(2, 3).requires_grad_()
    s = torch.arange(6.0, 12.0).reshape(2, 3).requires_grad_()
    out = a.scatter_reduce(1, torch.tensor([[0, 0, 2], [1, 1, 1]]), s, "mean", include_self=include_self)
    (out * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
    print("mean", include_self, out.detach(), a.grad, s.grad)

print(x.scatter_reduce(0, index, src, "amax").grad_fn.name())

# scatter(reduce=...): PyTorch's NotImplemented node.
for reduce in ["add", "multiply"]:
    y = x.scatter(0, index, src, reduce=reduce)
    z = x.scatter(0, index, 2.0, reduce=reduce)
    print(y.grad_fn.name(), z.grad_fn.name(), str(z.grad_fn).split(" at ")[0])
    try:
        y.sum().backward()
    except RuntimeError as e:
        print("RuntimeError:", e)

# round(decimals=): a zero gradient.
print("round decimals", gradcheck(lambda a: torch.round(a, decimals=2), (x,)), gradcheck(lambda a: a.round(decimals=-1) * a, (x,)))
w = torch.linspace(-2.0, 2.0, 5, requires_grad=True)
y = w.round(decimals=1)
print(y.grad_fn.name())
(y * w).sum().backward()
print(w.grad)
