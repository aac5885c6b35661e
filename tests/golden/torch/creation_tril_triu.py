# tril / triu with diagonals, as functions and methods.
import torch

x = torch.arange(1, 13).reshape(3, 4)
print(torch.tril(x))
print(torch.triu(x))
print(x.tril(1))
print(x.triu(-1))
print(torch.tril(x, diagonal=-2))
print(torch.ones(2, 3, 3).triu(1))
mask = torch.tril(torch.ones(4, 4, dtype=torch.bool))
print(mask)
try:
    torch.tril(torch.arange(3))
except RuntimeError as e:
    print(type(e).__name__, e)
