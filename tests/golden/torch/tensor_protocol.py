# Tensors in Python protocols: len, iteration, bool/int/float, in, unpacking, printing in
# containers, and the augmented operators.
import torch

x = torch.arange(6).reshape(3, 2)
print(len(x), [r.tolist() for r in x], list(torch.arange(3)))
a, b, c = torch.tensor([1.0, 2.0, 3.0])
print(a, b, c, a + b)
print(bool(torch.tensor([1])), int(torch.tensor(2.7)), float(torch.tensor([3])), bool(torch.tensor(0.0)))
print(2 in x, 10 in x, [torch.tensor(1.5), torch.tensor([1, 2])], {"k": torch.zeros(1)})
print(torch.tensor([1, 2]).tolist() == [1, 2], abs(torch.tensor([-1.5])), round(torch.tensor(2.567).item(), 2))
y = torch.ones(2)
y += 1
y *= torch.tensor([2.0, 3.0])
y -= 0.5
y /= 2
y **= 2
print(y)
i = torch.tensor([7, 8])
i //= 2
i %= 3
i <<= 1
i |= 1
print(i, -i, +i, ~i)
for k, v in enumerate(torch.tensor([10, 20])):
    print(k, v, v.item())
for p, q in zip(torch.tensor([1, 2]), torch.tensor([3.0, 4.0])):
    print(p * q)
print(sum(torch.tensor([1.0, 2.0])), max(torch.tensor([3, 9, 4])), sorted(torch.tensor([3, 1, 2]).tolist()))
try:
    iter(torch.tensor(1.0))
except TypeError as e:
    print(type(e).__name__, e)
try:
    bool(torch.tensor([1, 2]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    i /= 2
except RuntimeError as e:
    print(type(e).__name__, e)
