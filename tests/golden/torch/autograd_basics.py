# Eager autograd: backward() and .grad accumulation, torch.autograd.grad, gradcheck in float64
# over the pointwise ops, views, sum/mean and matrix products, grad_fn names and
# next_functions, PyTorch's errors (second backward, in-place modification, non-scalar
# outputs), and a linear regression trained with hand-written SGD steps.
import torch

torch.manual_seed(0)


def r(t, n=4):
    return [round(v, n) for v in t.reshape(-1).tolist()]


x = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
w = torch.tensor([2.0, -1.0, 0.25], requires_grad=True)
y = ((x * w + x.exp() / 2 - w.tanh() ** 2).sin() * 3 - x.sigmoid()).sum()
print(y.grad_fn.name(), [None if f is None else f.name() for f, _ in y.grad_fn.next_functions])
y.backward()
print("x.grad", r(x.grad), "w.grad", r(w.grad))
(x * x).sum().backward()  # accumulates
print("accumulated", r(x.grad))
x.grad = None
g, = torch.autograd.grad((x ** 3).mean(), x)
print("autograd.grad", r(g), x.grad)
gx, gw = torch.autograd.grad((x * w).sum(), [x, w], retain_graph=False)
print("pair", r(gx), r(gw))

# Views, reductions and products.
a = torch.arange(12.0).reshape(3, 4).requires_grad_()
b = torch.linspace(-1, 1, 8).reshape(4, 2).requires_grad_()
out = (a.t().reshape(2, 6).transpose(0, 1)[1:4].unsqueeze(0).squeeze(0).sum(1).mean()
       + (a @ b).pow(2).sum() / 10 + a[:, 1].sum() + a.expand(2, 3, 4).sum())
out.backward()
print("a.grad", r(a.grad, 3))
print("b.grad", r(b.grad, 3))

# gradcheck: the analytical Jacobian against central differences, float64.
d = dict(dtype=torch.float64)
p = (torch.rand(3, 4, **d) + 0.5).requires_grad_()
q = (torch.rand(4, **d) + 0.5).requires_grad_()
m = torch.rand(4, 2, **d).requires_grad_()
checks = {
    "arith": lambda p, q: p * q - p / q + (p + 1) ** q - 2 * p,
    "unary": lambda p, q: p.log() + p.sqrt() + p.rsqrt() + p.sin() * p.cos() + p.tanh() + p.abs(),
    "more": lambda p, q: torch.relu(p - 1) + torch.nn.functional.silu(p) + torch.erf(p) + p.reciprocal() + torch.nn.functional.gelu(p),
    "minmax": lambda p, q: torch.maximum(p, q) + torch.minimum(p, 1.2 * q) + torch.atan2(p, q),
    "views": lambda p, q: p.t().reshape(2, 6).permute(1, 0)[::2].unsqueeze(1).expand(3, 2, 2) * 1,
    "reduce": lambda p, q: p.sum(0) * p.mean(1, keepdim=True) + p.sum(),
    "matmul": lambda p, q: (p @ q, p @ m, torch.mm(p.t(), p), p.unsqueeze(0).bmm(m.unsqueeze(0))),
    "softmax": lambda p, q: (torch.softmax(p, 1) * q, torch.log_softmax(p * q, 0), p.softmax(-1).log_softmax(0)),
    "mse": lambda p, q: (torch.nn.functional.mse_loss(p, q.expand(3, 4)), torch.nn.functional.mse_loss(p, p * q, reduction="sum")),
}
for name, fn in checks.items():
    print("gradcheck", name, torch.autograd.gradcheck(fn, (p, q)))
lin = lambda x, wt, bias: torch.nn.functional.linear(x, wt, bias)
print("gradcheck linear", torch.autograd.gradcheck(lin, (torch.rand(5, 4, **d).requires_grad_(),
                                                          torch.rand(3, 4, **d).requires_grad_(),
                                                          torch.rand(3, **d).requires_grad_())))

# PyTorch's errors.
z = (x * w).sum()
z.backward()
try:
    z.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(".")[0])
s = x * 2
t = s * s
s.add_(1)
try:
    t.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split(" Hint")[0])
try:
    (x * 2).backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.ones(2).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.mul_(2)
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    print("no_grad", (x * 2).requires_grad, (x * 2).grad_fn)
print("leaf", x.is_leaf, (x * 2).is_leaf, x.grad_fn, (x * 2).detach().requires_grad)

# Linear regression by hand-written SGD: y = 3 x0 - 2 x1 + 0.5.
u = torch.linspace(-1, 1, 20)
X = torch.stack([u, u * u - 0.3], 1)
target = X @ torch.tensor([3.0, -2.0]) + 0.5
W = torch.zeros(2, requires_grad=True)
B = torch.zeros(1, requires_grad=True)
losses = []
for step in range(200):
    pred = X @ W + B
    loss = ((pred - target) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        W -= 0.1 * W.grad
        B -= 0.1 * B.grad
    W.grad = None
    B.grad = None
    losses.append(loss.item())
print("loss falls", losses[0] > losses[50] > losses[199], round(losses[199], 5))
print("fit", r(W, 3), r(B, 3))

# A two-layer classifier on fixed points, softmax cross-entropy written out, hand-written SGD.
pts = torch.stack([torch.linspace(-2, 2, 16), torch.linspace(-2, 2, 16).flip(0) * 0.5], 1)
labels = (pts[:, 0] > 0).long() + (pts[:, 1] > 0.5).long()
onehot = torch.nn.functional.one_hot(labels, 3).float()
W1 = (torch.arange(16.0).reshape(2, 8).sin() * 0.5).requires_grad_()
W2 = (torch.arange(24.0).reshape(8, 3).cos() * 0.5).requires_grad_()
for step in range(300):
    logits = torch.tanh(pts @ W1) @ W2
    loss = -(torch.log_softmax(logits, 1) * onehot).sum(1).mean()
    loss.backward()
    with torch.no_grad():
        for p_ in (W1, W2):
            p_ -= 0.5 * p_.grad
            p_.grad = None
    if step in (0, 299):
        print("classifier loss", step, round(loss.item(), 4))
print("accuracy", (logits.argmax(1) == labels).float().mean().item())
