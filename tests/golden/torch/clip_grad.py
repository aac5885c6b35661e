# torch.nn.utils: clip_grad_norm_ (2-norm, inf-norm, other orders, below and above max_norm,
# error_if_nonfinite, a single tensor, parameters without gradients), get_total_norm,
# clip_grads_with_norm_, clip_grad_value_, parameters_to_vector and vector_to_parameters.
# Gradients are built from sin() (Kiln's random generator is not PyTorch's).
import math

import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_


def det(shape, k):
    n = 1
    for s in shape:
        n *= s
    return (torch.sin(torch.arange(n, dtype=torch.float32) * k + 0.3) * 2.0).reshape(shape)


def params_with_grads(scale=1.0):
    ps = []
    for i, shape in enumerate([(4, 3), (3,), (2, 4)]):
        p = torch.zeros(shape, requires_grad=True)
        p.grad = det(shape, 0.5 + 0.3 * i) * scale
        ps.append(p)
    return ps


def grads(ps):
    return [[round(v, 4) for v in p.grad.reshape(-1).tolist()] for p in ps]


print("== clip_grad_norm_")
for max_norm, norm_type in ((1.0, 2.0), (100.0, 2), (0.5, float("inf")), (2.0, "inf"),
                            (1.5, 1), (3.0, 3.0)):
    ps = params_with_grads()
    total = clip_grad_norm_(ps, max_norm, norm_type=norm_type)
    print(max_norm, norm_type, total, total.dtype, total.shape, total.requires_grad)
    print("  ", grads(ps)[0][:6], round(float(torch.norm(ps[2].grad)), 4))

ps = params_with_grads()
total = clip_grad_norm_(ps, max_norm=1.0)
after = torch.norm(torch.stack([torch.norm(p.grad) for p in ps]))
print("norm after clipping", round(after.item(), 5))

single = torch.zeros(5, requires_grad=True)
single.grad = torch.tensor([3.0, -4.0, 0.0, 12.0, 0.0])
print(clip_grad_norm_(single, 6.5), single.grad)

none_grad = torch.zeros(3, requires_grad=True)
ps = params_with_grads() + [none_grad]
print(clip_grad_norm_(ps, 1.0), none_grad.grad)
print(clip_grad_norm_([none_grad], 1.0))
print(clip_grad_norm_((p for p in []), 1.0))

print("== error_if_nonfinite")
ps = params_with_grads()
ps[1].grad[0] = float("inf")
try:
    clip_grad_norm_(ps, 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)
ps = params_with_grads()
ps[0].grad[1, 1] = float("nan")
print(clip_grad_norm_(ps, 1.0))
print(ps[1].grad)
ps = params_with_grads()
ps[0].grad[0, 0] = math.inf
print(clip_grad_norm_(ps, 1.0, norm_type=math.inf), ps[0].grad[0])

print("== get_total_norm / clip_grads_with_norm_")
ps = params_with_grads()
total = torch.nn.utils.get_total_norm([p.grad for p in ps])
print(total)
torch.nn.utils.clip_grads_with_norm_(ps, 2.0, total)
print(grads(ps)[1])

print("== clip_grad_value_")
ps = params_with_grads()
print(clip_grad_value_(ps, 0.75))
print(grads(ps))
ps = params_with_grads()
clip_grad_value_(ps[0], clip_value=1)
print(grads(ps)[0])

print("== model")
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(det(p.shape, 0.9 + 0.2 * i) * 0.3)
x = det((6, 3), 0.41)
loss = model(x).pow(2).sum()
loss.backward()
print(clip_grad_norm_(model.parameters(), max_norm=0.5))
print(round(float(torch.norm(torch.stack([torch.norm(p.grad) for p in model.parameters()]))), 5))

print("== parameters_to_vector")
vec = torch.nn.utils.parameters_to_vector(model.parameters())
print(vec.shape, vec.requires_grad, vec.grad_fn is not None)
new = torch.arange(vec.numel(), dtype=torch.float32) / 10
torch.nn.utils.vector_to_parameters(new, model.parameters())
print(model[0].bias, model[2].weight)
print(type(model[0].weight).__name__, model[0].weight.requires_grad)
new[0] = 42.0
print(model[0].weight[0, 0])
try:
    torch.nn.utils.vector_to_parameters([1.0, 2.0], model.parameters())
except TypeError as e:
    print("TypeError:", e)
