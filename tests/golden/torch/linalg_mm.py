# mm, bmm, addmm (beta/alpha) and their errors.
import torch

a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(6.0).reshape(3, 2)
print(torch.mm(a, b), a.mm(b), a.t().mm(a))
x = torch.arange(12.0).reshape(2, 2, 3)
y = torch.arange(12.0).reshape(2, 3, 2)
print(torch.bmm(x, y), x.bmm(y).shape)
bias = torch.tensor([1.0, -1.0])
print(torch.addmm(bias, a, b), torch.addmm(bias, a, b, beta=0.5, alpha=2), bias.addmm(a, b) if False else "")
print(torch.addmm(torch.ones(2, 2), a, b, beta=0))
m = torch.zeros(2, 2)
m.addmm_(a, b)
print(m)
for bad in [lambda: torch.mm(a, a), lambda: torch.mm(a, torch.ones(3)), lambda: torch.bmm(a, b),
            lambda: torch.bmm(x, x), lambda: torch.addmm(torch.ones(3), a, b)]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
w = a.clone().requires_grad_()
print(w.mm(b), torch.addmm(bias, w, b), torch.bmm(x.requires_grad_(), y))
