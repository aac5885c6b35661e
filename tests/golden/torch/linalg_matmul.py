# matmul / @ for 1-d, 2-d and batched operands with broadcasting; errors.
import torch

a = torch.arange(6.0).reshape(2, 3)
b = torch.arange(12.0).reshape(3, 4)
v = torch.tensor([1.0, 0.5, -1.0])
print(a @ b, torch.matmul(a, b), a.matmul(b))
print(a @ v, v @ b, v @ v, torch.matmul(v, v).shape)
ba = torch.arange(24.0).reshape(2, 2, 3, 2)
print(torch.matmul(ba, a).shape, (ba @ torch.ones(2)).shape, (torch.ones(3) @ ba).shape)
print(torch.matmul(torch.ones(5, 1, 2, 3), torch.ones(4, 3, 2)).shape)
print(a.t() @ a, a @ a.t().contiguous())
i = torch.arange(6).reshape(2, 3)
print(i @ i.t(), (i @ i.t()).dtype)
print(a.half() @ b.half(), (a.double() @ b.double()).dtype, a.bfloat16() @ b.bfloat16())
c = a.clone()
c @= torch.eye(3)
print(c)
for bad in [lambda: a @ a, lambda: a @ torch.ones(2), lambda: torch.tensor(1.0) @ a,
            lambda: a @ b.int()]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
w = torch.ones(2, 3, requires_grad=True)
print(w @ b, w @ v, v @ w.t(), torch.ones(2, 2, 3, requires_grad=True) @ b)
