# add / sub with alpha, operators, broadcasting and Python numbers on either side.
import torch

a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
b = torch.tensor([10.0, 20.0, 30.0])
print(a + b, a - b, torch.add(a, b), torch.sub(a, b), a.add(b), a.sub(b))
print(torch.add(a, b, alpha=2), torch.sub(a, b, alpha=0.5), a.add(1, alpha=3))
print(a + 1, 1 + a, a - 1, 1 - a, torch.add(a, 2.5), torch.subtract(a, 1))
print(a + torch.tensor(1.0), torch.tensor([[1.0], [2.0]]) + b)
i = torch.tensor([1, 2, 3])
print(i + 1, i + 1.5, i + True, torch.add(i, i, alpha=2), i.sub(i, alpha=-1))
print(torch.add(i, 2, alpha=3), torch.sub(i, 1, alpha=2))
out = torch.zeros(3)
torch.add(i, 1, out=out)
print(out)
c = a.clone()
c += 1
c -= b
print(c)
try:
    a + torch.ones(4)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.add(i, i, alpha=0.5)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.tensor([True]) - torch.tensor([False])
except NotImplementedError as e:
    print(type(e).__name__, e)
try:
    a + "x"
except TypeError as e:
    print(type(e).__name__, e)
try:
    torch.add(a, "x")
except TypeError as e:
    print(type(e).__name__, e)
