# Derivatives of flip, roll (over dims and flattened), repeat (with new leading dims), lerp
# (number and tensor weights, broadcast, lerp_ on a tensor with history), erfc, and the
# out-of-place index_put (with and without accumulate), whose input's gradient was lost: float64
# gradchecks, node names and the gradients of deterministic inputs.
import torch
from torch.autograd import gradcheck

torch.manual_seed(0)
def r(*s):
    return torch.randn(*s, dtype=torch.float64, requires_grad=True)

x = r(3, 4)
y = r(3, 4)
print("flip", gradcheck(lambda a: a.flip(1), (x,)), gradcheck(lambda a: torch.flip(a, [0, 1]), (x,)))
print("roll", gradcheck(lambda a: a.roll(1, 1), (x,)), gradcheck(lambda a: torch.roll(a, (2, -1), (0, 1)), (x,)),
      gradcheck(lambda a: a.roll(5), (x,)))
print("repeat", gradcheck(lambda a: a.repeat(2, 1), (x,)), gradcheck(lambda a: a.repeat(2, 1, 3), (x,)),
      gradcheck(lambda a: a[0].repeat(2, 2), (x,)))
print("lerp", gradcheck(lambda a, b: torch.lerp(a, b, 0.3), (x, y)),
      gradcheck(lambda a, b, w: torch.lerp(a, b, w), (x, y, r(3, 4))),
      gradcheck(lambda a, b, w: a.lerp(b, w), (x, r(4), r(3, 1))))
def lerp_in_place(a, b):
    c = a * 2
    c.lerp_(b, 0.25)
    return c
print("lerp_", gradcheck(lerp_in_place, (x, y)))
print("erfc", gradcheck(torch.erfc, (x,)))
iput = torch.tensor([0, 2, 0])
print("index_put", gradcheck(lambda a, v: a.index_put((torch.tensor([0, 2]),), v), (x, r(2, 4))),
      gradcheck(lambda a, v: a.index_put((iput,), v, accumulate=True), (x, r(3, 4))),
      gradcheck(lambda a, v: torch.index_put(a, (iput, torch.tensor([1, 1, 3])), v, accumulate=True), (x, r(3))))

w = torch.arange(6.0).reshape(2, 3).requires_grad_()
weights = torch.arange(1.0, 7.0).reshape(2, 3)
f = w.flip(1)
ro = w.roll(1, 1)
rf = w.roll(2)
print(f.grad_fn.name(), ro.grad_fn.name(), rf)
((f + ro + rf) * weights).sum().backward()
print(w.grad)
w.grad = None
rep = w.repeat(2, 1, 2)
print(rep.grad_fn.name(), rep.shape)
(rep * torch.arange(24.0).reshape(2, 2, 6)).sum().backward()
print(w.grad)

a = torch.linspace(0.0, 1.0, 4, requires_grad=True)
b = torch.linspace(2.0, 5.0, 4, requires_grad=True)
t = torch.tensor([0.0, 0.25, 0.5, 1.0], requires_grad=True)
l0 = torch.lerp(a, b, 0.5)
l1 = torch.lerp(a, b, t)
print(l0.grad_fn.name(), l1.grad_fn.name(), l1)
((l0 + l1) * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(a.grad, b.grad, t.grad)

e = torch.linspace(-1.0, 1.0, 5, requires_grad=True)
torch.erfc(e).sum().backward()
print(e.grad)

base = torch.arange(4.0, requires_grad=True)
vals = torch.tensor([10.0, 20.0, 30.0], requires_grad=True)
out = base.index_put((torch.tensor([1, 3, 1]),), vals, accumulate=True)
(out * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print(out, base.grad, vals.grad)
