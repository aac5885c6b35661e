# split (size or sections), chunk, unbind, narrow.
import torch

x = torch.arange(10.0).reshape(5, 2)
print(x.split(2), torch.split(x, [1, 4]), x.split(1, dim=1), torch.split(x, 3, 0))
print(x.chunk(2), torch.chunk(x, 3, dim=0), x.chunk(5, 1), len(torch.arange(6).chunk(4)))
print(x.unbind(), torch.unbind(x, 1), x.narrow(0, 1, 2), torch.narrow(x, 1, 1, 1))
print(type(x.split(2)).__name__, [p.shape for p in x.split([2, 3])])
n = x.narrow(0, 2, 2)
n[0, 0] = 100.0
print(x[2], n.is_contiguous(), x.narrow(1, 0, 1).is_contiguous())
for bad in [lambda: x.split([1, 2]), lambda: x.narrow(0, 4, 2), lambda: x.chunk(0),
            lambda: x.split(0)]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
w = torch.ones(4, requires_grad=True)
print(w.split(2), w.chunk(2), w.unbind(), w.narrow(0, 1, 2), w.split([1, 3]))
