# expand, expand_as, broadcast_to: views with stride 0.
import torch

x = torch.tensor([[1.0], [2.0], [3.0]])
e = x.expand(3, 4)
print(e, e.stride(), e.is_contiguous(), x.expand(2, 3, 4).shape, x.expand(-1, 2))
print(x.expand_as(torch.zeros(3, 2)), torch.broadcast_to(x, (3, 3)), x.broadcast_to((2, 3, 1)).shape)
print(torch.tensor(5).expand(2, 2), torch.tensor([1, 2]).expand(3, 2).sum(0))
c = e.contiguous()
c[0, 0] = 9.0
print(x[0, 0], c.stride())
for bad in [lambda: x.expand(2, 4), lambda: x.expand(4), lambda: x.expand(3, -2)]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
w = torch.ones(2, 1, requires_grad=True)
print(w.expand(2, 3), w.expand_as(torch.zeros(2, 2)))
