# Module full backward hooks (issue 16): register_full_backward_hook sees grad_input (per
# positional argument, None for non-tensors) and grad_output, and may replace grad_input;
# register_full_backward_pre_hook sees grad_output and may replace it; hooks on nested modules
# run innermost first; a module whose inputs need no grad still gets its hook (grad_input all
# None); removing the handle stops it; the results show BackwardHookFunctionBackward.
import torch
import torch.nn as nn


def fmt(grads):
    return [None if g is None else [round(v, 4) for v in g.flatten().tolist()] for g in grads]


class Scale(nn.Module):
    def forward(self, x, factor, y):
        return x * factor + y.sum()


lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
    lin.bias.copy_(torch.tensor([0.01, -0.02]))
seen = []


def hook(module, grad_input, grad_output):
    seen.append((type(module).__name__, fmt(grad_input), fmt(grad_output)))


def pre_hook(module, grad_output):
    seen.append(("pre " + type(module).__name__, fmt(grad_output)))


h1 = lin.register_full_backward_hook(hook)
h2 = lin.register_full_backward_pre_hook(pre_hook)
x = torch.linspace(-1, 1, 6).reshape(2, 3).requires_grad_()
out = lin(x)
print(out.grad_fn.name())
(out * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
for s in seen:
    print(s)
print(fmt([x.grad]))

# Replacing grad_input and grad_output.
seen.clear()
x.grad = None
h2.remove()
h3 = lin.register_full_backward_pre_hook(lambda m, go: (go[0] * 10,))
h1.remove()
h4 = lin.register_full_backward_hook(lambda m, gi, go: (gi[0] + 1,))
lin(x).sum().backward()
print(fmt([x.grad]), fmt([lin.bias.grad]))
h3.remove()
h4.remove()

# Several arguments, a number among them; nested modules; inputs without grad.
scale = Scale()
scale.register_full_backward_hook(hook)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
seen.clear()
scale(a, 3.0, b).sum().backward()
print(seen)
net = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), lin)
with torch.no_grad():
    net[0].weight.copy_(torch.eye(3))
    net[0].bias.zero_()
for m in net:
    m.register_full_backward_hook(hook)
seen.clear()
net(torch.ones(1, 3)).sum().backward()  # the input needs no grad
for s in seen:
    print(s)
