# Writes through basic indexing on tensors in the autograd graph (PyTorch's CopySlices):
# a[1:3] = v, a[:, 0] = v, a[1] = number, a[..., 2] = v, augmented writes (a[1:3] += v,
# a[:, 1] *= v), a write into a tensor that needs no grad, and the whole-tensor overwrites
# (a[:] = v, a[...] = number, copy_, fill_, zero_): float64 gradchecks, PyTorch's node names and
# the gradients of deterministic inputs.
import torch
from torch.autograd import gradcheck

torch.manual_seed(0)
def r(*s):
    return torch.randn(*s, dtype=torch.float64, requires_grad=True)
def r0():
    return torch.randn((), dtype=torch.float64, requires_grad=True)

def written(a, key, v):
    b = a * 1
    b[key] = v
    return b

x = r(3, 4)
print("a[1:3] = v", gradcheck(lambda a, v: written(a, slice(1, 3), v), (x, r(2, 4))))
print("a[:, 0] = v", gradcheck(lambda a, v: written(a, (slice(None), 0), v), (x, r(3))))
print("a[1] = v (broadcast)", gradcheck(lambda a, v: written(a, 1, v), (x, r(1))))
print("a[1] = v (leading ones)", gradcheck(lambda a, v: written(a, 1, v), (x, r(1, 1, 4))))
print("a[:, 0] = 2.0", gradcheck(lambda a: written(a, (slice(None), 0), 2.0), (x,)))
print("a[..., 2] = v", gradcheck(lambda a, v: written(a, (Ellipsis, 2), v), (x, r(3))))
print("a[0, 1:3] = v", gradcheck(lambda a, v: written(a, (0, slice(1, 3)), v), (x, r(2))))
print("a[None, 1, ::2] = v", gradcheck(lambda a, v: written(a, (None, 1, slice(None, None, 2)), v), (x, r(2))))
print("a[:] = v", gradcheck(lambda a, v: written(a, slice(None), v), (x, r(4))))
print("a[...] = t", gradcheck(lambda a, v: written(a, Ellipsis, v), (x, r0())))

def slice_add(a, v):
    b = a * 1
    b[1:3] += v
    return b
def col_mul(a, v):
    b = a * 1
    b[:, 1] *= v
    return b
def into_zeros(v):
    b = torch.zeros(3, 4, dtype=torch.float64)
    b[1] = v
    return b
def copied(a, v):
    b = a * 1
    b.copy_(v)
    return b
def filled(a, v):
    b = a * 1
    b.fill_(v)
    return b
def zeroed(a):
    b = a * 1
    b.zero_()
    return b
print("a[1:3] += v", gradcheck(slice_add, (x, r(2, 4))))
print("a[:, 1] *= v", gradcheck(col_mul, (x, r(3))))
print("zeros[1] = v", gradcheck(into_zeros, (r(4),)))
print("copy_", gradcheck(copied, (x, r(4))))
print("fill_ tensor", gradcheck(filled, (x, r0())))
print("zero_", gradcheck(zeroed, (x,)))

# Node names and next_functions.
def nexts(t):
    return [None if n is None else n.name() for n, _ in t.grad_fn.next_functions]
w = torch.arange(12.0).reshape(3, 4).requires_grad_()
v = torch.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
b = w * 2
b[1] = v
print(b.grad_fn.name(), nexts(b))
print(b)
(b * torch.arange(12.0).reshape(3, 4)).sum().backward()
print("w", w.grad, "v", v.grad)

w.grad = None
c = w * 1
c[:, 0] = 5.0
print(c.grad_fn.name(), nexts(c))
c.sum().backward()
print("w", w.grad)

z = torch.zeros(2, 4)
z[0] = v
print(z.grad_fn.name(), nexts(z))
(z * 3).sum().backward()
print("v", v.grad)

w.grad = None
d = w * 1
d[:] = v
e = w * 1
e[...] = 2.0
f = w * 1
f.fill_(1.0)
g = w * 1
g.zero_()
h = w * 1
h.copy_(v)
for t in (d, e, f, g, h):
    print(t.grad_fn.name(), nexts(t))
(d.sum() + e.sum() + f.sum() + g.sum() + h.sum()).backward()
print("w", w.grad, "v", v.grad)

# Two writes in a row, the second into the first's result.
w.grad = None
k = w * 1
k[0] = v
k[:, 1] = torch.tensor([7.0, 8.0, 9.0])
(k * torch.arange(12.0).reshape(3, 4)).sum().backward()
print("w", w.grad)

# The value as the node sees it: leading size-1 dims viewed away, then expanded.
for shape in [(1,), (1, 1, 4), (1, 4), (4,), (), (1, 1)]:
    val = torch.ones(shape, requires_grad=True)
    row = w * 1
    row[1] = val
    rows = w * 1
    rows[1:] = val
    every = w * 1
    every[:] = val
    print(shape, nexts(row), nexts(rows), nexts(every))
    (row.sum() + rows.sum() + every.sum()).backward()
    print(val.grad)
