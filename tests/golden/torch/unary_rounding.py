# floor, ceil, round (also with decimals), trunc, frac, sign.
import torch

x = torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.7, -2.7])
print(torch.floor(x), x.ceil(), torch.round(x), x.trunc(), torch.fix(x), x.frac(), x.sign())
y = torch.tensor([1.2345, -9.8765, 123.456, 0.05])
print(torch.round(y, decimals=2), y.round(decimals=1), torch.round(y, decimals=-1))
print(torch.round(torch.tensor([1234.5678]), decimals=-2))
print(torch.round(torch.tensor([0.125, 0.375], dtype=torch.float64), decimals=2))
i = torch.tensor([-3, 0, 4])
print(torch.floor(i), torch.round(i), i.sign(), torch.trunc(i), i.ceil())
print(torch.sign(torch.tensor([True, False])))
try:
    torch.round(i, decimals=1)
except NotImplementedError as e:
    print(type(e).__name__, e)
try:
    i.frac()
except NotImplementedError as e:
    print(type(e).__name__, e)
h = torch.tensor([1.55, -0.45], dtype=torch.float16)
print(h.round(), h.floor(), h.round(decimals=1))
