# In-place ops on a view of a tensor with autograd history rebase the history as PyTorch's do:
# the base's grad_fn becomes CopySlices (the op's node run on the view's region of the base's
# gradient) and the view's AsStridedBackward0 of it; views of a base written since see the
# write too. Views of leaves, views made under no_grad and pieces of split/unbind raise
# PyTorch's errors. Gradients are checked with gradcheck in float64.
import torch
import torch.nn.functional as F


def base_of(x):
    return x * 1.0


def show(name, b):
    fn = b.grad_fn
    nexts = [n.name() if n is not None else None for n, _ in fn.next_functions]
    print(name, fn.name(), nexts)


def check(name, f, *inputs):
    print(name, "gradcheck", torch.autograd.gradcheck(f, inputs))


x = torch.linspace(-1.5, 2.0, 12, dtype=torch.float64).reshape(3, 4).requires_grad_()
v = torch.linspace(0.5, 2.0, 4, dtype=torch.float64).requires_grad_()


def mul_row(x, v):
    b = base_of(x)
    b[0].mul_(v)
    return b


def zero_cols(x):
    b = base_of(x)
    b[:, 1:].zero_()
    return b


def fill_row(x):
    b = base_of(x)
    b[1].fill_(3)
    return b


def copy_row(x, v):
    b = base_of(x)
    b[2].copy_(v)
    return b


def add_flat(x):
    b = base_of(x)
    b.view(-1).add_(1)
    return b * b


def mul_t(x):
    b = base_of(x)
    b.t().mul_(2)
    return b * b


def relu_part(x):
    b = base_of(x)
    F.relu(b[:, :2], inplace=True)
    return b * b


def clamp_narrow(x):
    b = base_of(x)
    b.narrow(0, 1, 2).clamp_(0)
    return b * b


def sin_view_of_view(x):
    b = base_of(x)
    b[1:][0, 1:3].sin_()
    return b * b


def diagonal_exp(x):
    b = base_of(x)
    b.diagonal().exp_()
    return b * b


def permute_div(x, v):
    b = base_of(x)
    b.unsqueeze(0).permute(2, 0, 1)[1:].div_(v[0])
    return b * b


def setitem_on_view(x, v):
    b = base_of(x)
    row = b[1]
    row[1:3] = v[:2]
    return b * b


def base_written_then_view(x):
    b = base_of(x)
    w = b[0]
    b.mul_(3)
    return w * w


def sibling_view(x, v):
    b = base_of(x)
    s = b[0]
    b[0].add_(v)
    return s * s


def twice(x, v):
    b = base_of(x)
    r = b[1]
    r.mul_(v)
    r.add_(v)
    b[:, 0].pow_(2)
    return b * r.sum()


check("mul_row", mul_row, x, v)
check("zero_cols", zero_cols, x)
check("fill_row", fill_row, x)
check("copy_row", copy_row, x, v)
check("add_flat", add_flat, x)
check("mul_t", mul_t, x)
check("relu_part", relu_part, x)
check("clamp_narrow", clamp_narrow, x)
check("sin_view_of_view", sin_view_of_view, x)
check("diagonal_exp", diagonal_exp, x)
check("permute_div", permute_div, x, v)
check("setitem_on_view", setitem_on_view, x, v)
check("base_written_then_view", base_written_then_view, x)
check("sibling_view", sibling_view, x, v)
check("twice", twice, x, v)

# Gradients printed from deterministic inputs.
for name, f, args in [
    ("mul_row", mul_row, (x, v)),
    ("zero_cols", zero_cols, (x,)),
    ("copy_row", copy_row, (x, v)),
    ("relu_part", relu_part, (x,)),
    ("twice", twice, (x, v)),
]:
    x.grad = None
    v.grad = None
    out = f(*args)
    (out * torch.arange(12.0, dtype=torch.float64).reshape(3, 4)).sum().backward()
    print(name, "x.grad", [round(g, 9) for g in x.grad.flatten().tolist()])
    if v.grad is not None:
        print(name, "v.grad", [round(g, 9) for g in v.grad.tolist()])

# The nodes.
b = base_of(x)
r = b[0]
print("before", r.grad_fn.name())
r.mul_(v)
show("mul_row base", b)
show("mul_row view", r)
print("version", r._version, b._version)
b = base_of(x)
b[:, 1:].zero_()
show("zero_ base", b)
b = base_of(x)
b.narrow(0, 1, 2).clamp_(0)
print("clamp_ base", b.grad_fn.name())
print("clamp_ inner", [n and n.name() for n, _ in b.grad_fn.next_functions[0][0].next_functions])
b = base_of(x)
F.relu(b[:, :2], inplace=True)
show("relu base", b)
b = base_of(x)
w = b[2]
b.add_(1)
print("view of written base", w.grad_fn.name(), w.grad_fn.next_functions[0][0].name())
b = base_of(x)
b.t().mul_(2)
show("t base", b)

# A base that needs no gradient, written through a view with a value that does.
v.grad = None
c = torch.zeros(3, 4, dtype=torch.float64)
c[1].copy_(v)
show("plain base", c)
print("plain base leaf", c.is_leaf, c.requires_grad)
(c * torch.arange(12.0, dtype=torch.float64).reshape(3, 4)).sum().backward()
print("plain base v.grad", [round(g, 9) for g in v.grad.tolist()])
v.grad = None

# Nothing requires grad: no node.
c = torch.zeros(3, 4)
c[0].add_(1)
print("no grad", c.grad_fn, c.sum().item())

# Under no_grad: no node, the base keeps its history.
b = base_of(x)
with torch.no_grad():
    b[0].mul_(2)
print("no_grad write", b.grad_fn.name())

# detach() is a view without autograd relation.
b = base_of(x)
b.detach()[0].mul_(2)
print("detached view", b.grad_fn.name())

# Errors.
def error(name, f):
    try:
        f()
        print(name, "no error")
    except RuntimeError as e:
        print(name, type(e).__name__, e)


leaf = torch.ones(2, 3, requires_grad=True)
error("view of leaf", lambda: leaf[0].mul_(2))
def setitem_leaf_view():
    row = leaf[0]
    row[0] = 2.0


error("view of leaf setitem", setitem_leaf_view)
with torch.no_grad():
    leaf[0].mul_(1)
print("view of leaf under no_grad ok")
b = base_of(x)
with torch.no_grad():
    nv = b[0]
error("no_grad view", lambda: nv.mul_(2))
plain = torch.zeros(3)
with torch.no_grad():
    pv = plain[0:2]
error("no_grad view, value needs grad", lambda: pv.copy_(v[:2]))
b = base_of(x)
error("unbind piece", lambda: b.unbind(0)[1].mul_(2))
error("split piece", lambda: b.split(1)[0].mul_(2))
error("chunk piece", lambda: b.chunk(3, 1)[1].zero_())
error("expanded", lambda: b[0].expand(2, 4).mul_(2))

# A small model that writes an activation in place through a view.
torch.manual_seed(0)
W = (torch.arange(12.0).reshape(4, 3) / 10 - 0.5).requires_grad_()
inp = torch.linspace(-1, 1, 20).reshape(5, 4)
target = torch.linspace(0, 1, 15).reshape(5, 3)
for step in range(5):
    h = inp @ W
    h[:, 1:].mul_(2.0)
    h.t()[0].add_(0.5)
    h = torch.tanh(h)
    loss = ((h - target) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        W -= 0.5 * W.grad
        W.grad = None
    print("step", step, round(loss.item(), 6))


# Second derivatives (create_graph=True): through CopySlices and AsStridedBackward0, through the
# saved original of an in-place op, and through a view's backward (TBackward0, SliceBackward0).
def second(f):
    def gf(x, v):
        out = f(x, v)
        w = torch.linspace(-1, 2, out.numel(), dtype=torch.float64).reshape(out.shape)
        return torch.autograd.grad((out * w).sum(), (x, v), create_graph=True)

    return gf


def sq_row(x, v):
    b = x * x
    b[0].mul_(v)
    return b * b


def slice_cols(x, v):
    b = x.sin()
    b[:, 1:].mul_(v[:3])
    return b * v


def sibling_second(x, v):
    b = x.sin()
    w = b[1]
    b.mul_(v)
    return w * w


def plain_inplace(x, v):
    b = x * x
    b.mul_(v)
    return b.sin()


def through_t(x, v):
    return (x @ v.unsqueeze(0).t()).pow(2)


for f in (sq_row, slice_cols, sibling_second, plain_inplace, through_t):
    print(f.__name__, "second-order gradcheck", torch.autograd.gradcheck(second(f), (x, v)))
W = torch.linspace(0.5, 2.0, 6, dtype=torch.float64).reshape(2, 3).requires_grad_()
a = torch.linspace(-1, 1, 6, dtype=torch.float64).reshape(2, 3).requires_grad_()
gW, = torch.autograd.grad((a @ W.t()).pow(2).sum(), W, create_graph=True)
print("penalty", [round(g, 6) for g in torch.autograd.grad(gW.pow(2).sum(), a)[0].flatten().tolist()])
