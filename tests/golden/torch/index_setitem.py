# Assignment through indexing: ints, slices, masks, index lists, broadcasting, dtype casts.
import torch

x = torch.zeros(3, 4)
x[0] = 1
x[1, 1:3] = torch.tensor([5.0, 6.0])
x[:, -1] = torch.tensor([7.0, 8.0, 9.0])
x[2] = torch.tensor([1, 2, 3, 4])
print(x)
x[x > 5] = 0
print(x)
x[[0, 2], [0, 3]] = -1
print(x)
x[...] = 2.5
x[:, ::2] = torch.tensor([[1.0], [2.0], [3.0]])
print(x)
i = torch.zeros(4, dtype=torch.int64)
i[1] = 3.9
i[2:] = torch.tensor([1.5, -1.5])
i[torch.tensor([True, False, False, False])] = 7
print(i)
y = torch.arange(6.0).reshape(2, 3)
y[:, 1] += 10
y[0] *= 2
print(y)
m = torch.zeros(2, 2)
m[torch.tensor([0, 0]), torch.tensor([1, 1])] = torch.tensor([3.0, 4.0])
print(m)
b = torch.zeros(3, dtype=torch.bool)
b[1] = True
print(b)
try:
    x[0] = torch.ones(3)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x[5] = 1
except IndexError as e:
    print(type(e).__name__, e)
