# zeros / ones / full / empty with sizes as varargs or a sequence, dtype and requires_grad.
import torch

print(torch.zeros(2, 3))
print(torch.zeros((2, 3), dtype=torch.int32))
print(torch.zeros([4]), torch.zeros(()), torch.zeros(0), torch.zeros(2, 0).shape)
print(torch.ones(3, dtype=torch.bool))
print(torch.ones(2, 2, dtype=torch.float16))
print(torch.ones(torch.Size([1, 2])))
print(torch.full((2, 2), 7))
print(torch.full((2,), 1.5))
print(torch.full((2,), True))
print(torch.full([3], 2, dtype=torch.float64))
e = torch.empty(3, 4)
print(e.shape, e.dtype, e.is_contiguous())
print(torch.empty((2,), dtype=torch.int64).dtype)
z = torch.zeros(2, requires_grad=True)
print(z, z.is_leaf, z.grad_fn)
print(torch.ones(2, 3).sum(), torch.full((3, 3), -1.0).mean())
for bad in [lambda: torch.zeros(-1), lambda: torch.ones(2, dtype=torch.int64, requires_grad=True)]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
try:
    torch.zeros(2, "3")
except TypeError as e:
    print(type(e).__name__, e)
print(torch.zeros(size=(2, 2)), torch.ones(size=[3], dtype=torch.int64), torch.empty(size=(1, 2)).shape)
print(torch.randn(size=(2, 3)).shape, torch.rand(size=[4]).shape, torch.randint(0, 10, size=(3,)).shape,
      torch.randint(5, size=(2, 2)).dtype)
o = torch.empty(2, 2)
r = torch.zeros(2, 2, out=o)
print(r is o, o, torch.ones(3, out=torch.empty(0)), torch.full((2,), 4.0, out=torch.empty(2)))
print(torch.arange(3, out=torch.empty(3, dtype=torch.int64)), torch.eye(2, out=torch.empty(2, 2)),
      torch.linspace(0, 1, 3, out=torch.empty(3)))
