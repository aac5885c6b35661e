# view / reshape (sizes as varargs or a sequence, -1), view(dtype), view_as, reshape_as.
import torch

x = torch.arange(12.0)
print(x.view(3, 4), x.view((2, 6)), x.view(-1, 3).shape, x.view(2, -1, 2).shape, x.view([12]).shape)
print(x.reshape(4, 3), torch.reshape(x, (2, 2, 3)).shape, x.reshape(-1).shape, x.reshape(1, -1).shape)
v = x.view(3, 4)
v[0, 0] = 100.0
print(x[0], v.view(12)[0])
t = x.view(3, 4).t()
print(t.is_contiguous(), t.reshape(12), t.reshape(2, 6).is_contiguous())
print(x.view_as(torch.zeros(4, 3)).shape, x.reshape_as(torch.zeros(2, 6)).shape)
print(torch.tensor(5.0).view(1), torch.tensor(5.0).reshape(()), torch.zeros(0).view(0, 3).shape)
f = torch.tensor([1.0, -2.0])
print(f.view(torch.int32), f.view(torch.float32) is f, f.view(torch.float16).shape, f.view(torch.bool).shape)
print(torch.arange(4.0).view(torch.float64).shape, torch.tensor([1, 2], dtype=torch.int32).view(torch.float32))
for bad in [lambda: x.view(5, -1), lambda: t.view(12), lambda: x.view(-1, -1),
            lambda: x.reshape(5), lambda: x.view(3, 4).t().view(torch.float16),
            lambda: torch.arange(3.0).view(torch.float64)]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
w = torch.ones(2, 3, requires_grad=True)
print(w.view(6), w.reshape(3, 2), w.t().reshape(6), w.view_as(torch.zeros(3, 2)))
