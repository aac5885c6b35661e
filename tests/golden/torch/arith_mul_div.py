# mul, div (rounding modes), true_divide, floor_divide, remainder and fmod.
import torch

a = torch.tensor([7.0, -7.0, 7.5, -7.5])
b = torch.tensor([2.0, 2.0, -2.0, -2.0])
print(a * b, torch.mul(a, b), a.multiply(b), a * 2, 2 * a)
print(a / b, torch.div(a, b), a.divide(b), torch.true_divide(a, b), 1 / a)
print(torch.div(a, b, rounding_mode="trunc"), torch.div(a, b, rounding_mode="floor"))
print(a.div(2, rounding_mode="floor"), torch.div(a, b, rounding_mode=None))
print(a // b, torch.floor_divide(a, b), a % b, torch.remainder(a, b), torch.fmod(a, b))
i = torch.tensor([7, -7, 9])
j = torch.tensor([2, 2, -4])
print(i * j, i / j, i // j, i % j, torch.fmod(i, j), torch.remainder(i, 3), -7 % torch.tensor(3))
print(torch.div(i, j, rounding_mode="trunc"), torch.div(i, j, rounding_mode="floor"))
print(i * 0.5, i / 2, (i / 2).dtype, torch.tensor([True, False]) * 3)
print(torch.tensor([1.0, -1.0, 0.0]) / 0)
print(torch.remainder(5, torch.tensor([3, 4])))
try:
    i // 0
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    torch.div(a, b, rounding_mode="round")
except RuntimeError as e:
    print(type(e).__name__, e)
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
m *= torch.tensor([10.0, 100.0])
m /= 2
print(m)
