# uniform_ and normal_: bounds, statistics and errors (values themselves are not printed).
import torch

torch.manual_seed(0)
u = torch.empty(10000).uniform_(-2, 3)
print(bool((u >= -2).all()), bool((u < 3).all()), round(u.mean().item(), 1))
n = torch.zeros(20000).normal_(5.0, 2.0)
print(round(n.mean().item(), 1), round(n.std().item(), 1))
h = torch.empty(100, dtype=torch.float16).uniform_()
print(h.dtype, bool((h >= 0).all()), bool((h <= 1).all()))
d = torch.empty(3, dtype=torch.float64).normal_(mean=1.0, std=0.0)
print(d)
e = torch.ones(4)
r = e.uniform_(2, 2)
print(r is e, e)
for bad in [lambda: torch.empty(2).uniform_(1, 0), lambda: torch.empty(2).normal_(0, -1)]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
for bad in [lambda: torch.zeros(2, dtype=torch.int64).uniform_(), lambda: torch.zeros(2, dtype=torch.int64).normal_()]:
    try:
        bad()
    except NotImplementedError as e:
        print(type(e).__name__, e)
p = torch.zeros(2, requires_grad=True)
try:
    p.uniform_()
except RuntimeError as e:
    print(type(e).__name__, e)
print((p * 1).uniform_().grad_fn.name(), (p * 1).normal_().grad_fn.name())
