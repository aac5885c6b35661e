# Tensor hooks and retained gradients, as PyTorch's: register_hook on leaves and non-leaves
# (observing, replacing, several in order, removed by their handle), retain_grad on non-leaves
# (accumulated over two backward calls, kept after an in-place hook replaced the gradient),
# retains_grad, and the errors on tensors that need no gradient.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
z = (y * y).sum()
seen = []
h1 = y.register_hook(lambda g: seen.append(("y", g.tolist())))
h2 = x.register_hook(lambda g: seen.append(("x", g.tolist())))
print(type(h1).__name__, x.retains_grad, y.retains_grad)
y.retain_grad()
print(y.retains_grad, x.retains_grad)
z.backward(retain_graph=True)
print(seen)
print("x.grad", x.grad, "y.grad", y.grad)
h1.remove()
seen.clear()
z.backward()
print(seen, "x.grad", x.grad, "y.grad", y.grad)

a = torch.tensor([1.0, -1.0], requires_grad=True)
b = a.exp()
b.register_hook(lambda g: g * 10)
b.register_hook(lambda g: g + 1)
b.retain_grad()
b.sum().backward()
print("replaced", a.grad, b.grad)

w = torch.ones(2, requires_grad=True)
handle = w.register_hook(lambda g: g * 0)
(w * 3).sum().backward()
print("leaf hook", w.grad)
handle.remove()
(w * 3).sum().backward()
print("after remove", w.grad)

c = torch.ones(2)
try:
    c.register_hook(lambda g: g)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    c.retain_grad()
except RuntimeError as e:
    print("RuntimeError:", e)
w.retain_grad()
print("leaf retain", w.retains_grad)

def bad(g):
    return "no"
q = torch.ones(2, requires_grad=True)
q.register_hook(bad)
try:
    (q * 2).sum().backward()
except TypeError as e:
    print("TypeError")
