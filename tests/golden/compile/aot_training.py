# Training through torch.compile (issue 16, AOT autograd): the compiled graph's outputs carry
# CompiledFunctionBackward, and backward through it gives the gradients eager gives - for
# inputs and parameters, with broadcasting, views, reductions, products, relu's zeros and
# maximum's ties, outputs nothing reaches and parameters no output depends on. Data and weights
# come from arange/linspace, not the random generator (Kiln's differs from PyTorch's).
import torch
import torch.nn as nn
import torch.nn.functional as F


def det(*sizes, scale=1.0, shift=0.0):
    n = 1
    for s in sizes:
        n *= s
    return ((torch.arange(n, dtype=torch.float32) * 0.7303 + shift) % 2.0 - 1.0).reshape(sizes) * scale


def same_grads(fn, *args):
    eager_args = [a.detach().clone().requires_grad_(a.requires_grad) for a in args]
    compiled_args = [a.detach().clone().requires_grad_(a.requires_grad) for a in args]
    compiled = torch.compile(fn, backend="inductor")
    # twice: the first call runs while capturing, the second is the compiled graph's
    for _ in range(2):
        out = compiled(*compiled_args)
        out.backward()
        ref = fn(*eager_args)
        ref.backward()
    same = torch.allclose(out, ref, rtol=1e-5, atol=1e-6)
    for a, b in zip(compiled_args, eager_args):
        if a.requires_grad:
            same = same and torch.allclose(a.grad, b.grad, rtol=1e-5, atol=1e-6)
    return out.grad_fn.name(), same


x = det(4, 6).requires_grad_()
w = det(6, scale=0.5, shift=0.3).requires_grad_()
b = det(4, 1, shift=0.1)

print("pointwise:", same_grads(lambda x, w: (torch.sin(x) * w + torch.exp(x / 4) - w.tanh()).sum(), x, w))
print("division, pow:", same_grads(lambda x, w: ((x / (w.abs() + 1)) ** 2 + (w.abs() + 1).rsqrt()).mean(), x, w))
print("broadcast in:", same_grads(lambda x, b: (x * b - b).sum(), x, b.requires_grad_()))
print("views:", same_grads(lambda x: (x.t()[1:4, ::1].reshape(-1) * torch.arange(12.0)).sum(), x))
print("slices, cat:", same_grads(lambda x: torch.cat([x[:, :2] * 3, x[:, 3:]], dim=1).pow(2).sum(), x))
print("amax, softmax:", same_grads(lambda x: (x.amax(dim=1) + F.softmax(x, dim=-1)[:, 0]).sum(), x))
print("log_softmax:", same_grads(lambda x: F.log_softmax(x * 2, dim=1)[:, 1].sum(), x))
print("layer_norm:", same_grads(lambda x, w: F.layer_norm(x, (6,), w, None).pow(2).sum(), x, w))
print("var:", same_grads(lambda x: x.var(dim=0).sum() + x.std(), x))
print("products:", same_grads(lambda x, w: (x @ w.unsqueeze(1)).sum() + torch.bmm(x.view(2, 2, 6), x.view(2, 6, 2)).sum(), x, w))
relu_in = torch.tensor([[-1.0, 0.0, 2.0], [0.0, 3.0, -2.0]]).requires_grad_()
print("relu zeros:", same_grads(lambda x: (F.relu(x) * torch.tensor([1.0, 2.0, 3.0])).sum(), relu_in))
print("clamp bounds:", same_grads(lambda x: x.clamp(min=0.0, max=2.0).sum(), relu_in))
ties = torch.tensor([1.0, 2.0, 3.0]).requires_grad_()
print("maximum ties:", same_grads(lambda a, b: torch.maximum(a, b).sum() + torch.minimum(a, b).sum() * 2, ties, torch.tensor([1.0, 0.0, 3.0]).requires_grad_()))
print("where:", same_grads(lambda x: torch.where(x > 0, x * 2, x.exp()).sum(), x))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 16)
        self.fc2 = nn.Linear(16, 3)
        self.unused = nn.Linear(2, 2)
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(det(*p.shape, scale=0.4, shift=0.2 * i))

    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))


def train(model, steps):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
    target = det(8, 3, scale=0.5, shift=0.5)
    data = det(8, 6, shift=0.25)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(model(data), target)
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 5))
    return losses


eager_model = MLP()
compiled_model = MLP()
compiled = torch.compile(compiled_model)
eager_losses = train(eager_model, 6)
compiled_losses = train(compiled, 6)
print("eager losses:", eager_losses)
print("compiled losses:", compiled_losses)
print("losses fall:", compiled_losses[-1] < compiled_losses[0])
print("weights equal eager:", all(torch.allclose(a, b, rtol=1e-5, atol=1e-6) for a, b in zip(eager_model.parameters(), compiled_model.parameters())))
print("unused parameter's grad:", compiled_model.unused.weight.grad)
out = compiled(det(2, 6))
print("grad_fn:", out.grad_fn.name(), [type(f).__name__ if f is not None else None for f, _ in out.grad_fn.next_functions][:2])


def two_outputs(x, w):
    y = x * w
    return y.sum(), (y * 2).mean()


f2 = torch.compile(two_outputs)
xa = det(3, 6).requires_grad_()
for _ in range(2):
    xa.grad = None
    first, second = f2(xa, w.detach())
    first.backward()
print("only the first output reached:", torch.allclose(xa.grad, w.detach().expand(3, 6)))
with torch.no_grad():
    print("no_grad call:", f2(xa, w)[0].requires_grad)
