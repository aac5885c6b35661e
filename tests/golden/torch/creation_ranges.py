# arange, linspace and eye.
import torch

print(torch.arange(5))
print(torch.arange(1, 4))
print(torch.arange(0, 1, 0.25))
print(torch.arange(5.0))
print(torch.arange(10, 0, -3))
print(torch.arange(4, dtype=torch.float32))
print(torch.arange(0, 2.5, 0.5, dtype=torch.float64))
print(torch.arange(start=2, end=6, step=2))
print(torch.arange(torch.tensor(3)))
print(torch.linspace(0, 1, 5))
print(torch.linspace(-1, 1, steps=3))
print(torch.linspace(0, 10, 4, dtype=torch.float64))
print(torch.linspace(2, 2, 1), torch.linspace(0, 1, 0))
print(torch.eye(3))
print(torch.eye(2, 3, dtype=torch.int64))
for bad in [lambda: torch.arange(0, 5, 0), lambda: torch.arange(5, 0, 1)]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
try:
    torch.linspace(0, 1, -1)
except RuntimeError as e:
    print(type(e).__name__, e)
