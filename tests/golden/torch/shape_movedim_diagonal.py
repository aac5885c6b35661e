# movedim / moveaxis with ints and sequences, diagonal with offsets and dims.
import torch

x = torch.zeros(2, 3, 4, 5)
print(x.movedim(0, -1).shape, torch.movedim(x, 1, 0).shape, x.movedim((0, 1), (2, 3)).shape,
      torch.moveaxis(x, (3, 0), (0, 3)).shape, x.movedim([0, 2], [3, 0]).shape)
m = torch.arange(12).reshape(3, 4)
print(m.diagonal(), torch.diagonal(m, 1), m.diagonal(-1), m.diagonal(offset=5), m.t().diagonal())
b = torch.arange(18).reshape(2, 3, 3)
print(b.diagonal(dim1=1, dim2=2), torch.diagonal(b, 0, -2, -1).shape, b.diagonal(0, 0, 2).shape)
for bad in [lambda: x.movedim((0, 1), (2,)), lambda: x.movedim((0, 0), (1, 2)), lambda: m.diagonal(0, 0, 0)]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
w = torch.ones(2, 2, requires_grad=True)
print(w.diagonal(), w.movedim(0, 1))
