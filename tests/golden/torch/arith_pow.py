# pow with tensor and number exponents and bases.
import torch

x = torch.tensor([1.0, 2.0, 3.0])
print(x ** 2, torch.pow(x, 2), x.pow(0.5), x ** -1, 2 ** x, torch.pow(2, x))
print(torch.pow(x, torch.tensor([3.0, 2.0, 1.0])), x ** x)
i = torch.tensor([1, 2, 3])
print(i ** 2, i ** 0.5, 2 ** i, i.pow(i), torch.pow(i, 2.0), i ** True)
try:
    i ** -1
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.tensor([-8.0, 4.0]) ** (1 / 3), torch.tensor([0.0]) ** 0)
print(torch.tensor([2.0], dtype=torch.float16) ** 3, torch.tensor([3], dtype=torch.int32) ** 2)
y = x.clone()
y **= 2
print(y, y.pow_(0.5))
