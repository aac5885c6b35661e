# fill_, zero_, copy_ (broadcasting and dtype casts) and autograd bookkeeping.
import torch

x = torch.empty(2, 3)
print(x.fill_(2.5), x.zero_(), torch.zeros(2).fill_(torch.tensor(7)))
i = torch.zeros(3, dtype=torch.int64)
print(i.fill_(3.9), i.copy_(torch.tensor([1.5, -2.5, 3.5])), torch.zeros(2, dtype=torch.bool).fill_(5))
y = torch.zeros(2, 3)
y.copy_(torch.tensor([1.0, 2.0, 3.0]))
print(y)
y[:, 1].copy_(torch.tensor([9.0, 8.0]))
y.t()[0].fill_(-1)
print(y)
z = torch.zeros(3)
r = z.copy_(torch.arange(3))
print(r is z, z)
torch.fill_(z, 4)
torch.zero_(y)
print(z, y)
try:
    torch.zeros(2, 3).copy_(torch.ones(2))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.fill_(torch.ones(2))
except RuntimeError as e:
    print(type(e).__name__, e)
p = torch.zeros(2, requires_grad=True)
for f in [lambda: p.fill_(1), lambda: p.zero_(), lambda: p.copy_(torch.ones(2))]:
    try:
        f()
    except RuntimeError as e:
        print(type(e).__name__, e)
print((p * 2).fill_(1), (p * 2).zero_(), (p * 2).copy_(torch.ones(2)), (p * 2).fill_(torch.tensor(1.0)))
c = torch.zeros(2)
c.copy_(p)
print(c)
with torch.no_grad():
    p.fill_(3)
print(p)
