# permute, transpose / swapaxes / swapdims, t, T and mT.
import torch

x = torch.arange(24).reshape(2, 3, 4)
print(x.permute(2, 0, 1).shape, x.permute((1, 2, 0)).stride(), torch.permute(x, (2, 1, 0)).shape)
print(x.permute(0, 2, 1)[0])
print(x.transpose(0, 2).shape, torch.transpose(x, 1, -1).shape, x.swapaxes(0, 1).shape,
      torch.swapdims(x, 0, 2).stride())
m = torch.arange(6).reshape(2, 3)
print(m.t(), torch.t(m), m.T, m.mT, torch.arange(3).t(), x.mT.shape)
print(x.permute(2, 0, 1).contiguous().is_contiguous(), x.transpose(0, 1).is_contiguous())
for bad in [lambda: x.permute(0, 1), lambda: x.permute(0, 1, 1), lambda: x.t(),
            lambda: x.transpose(0, 3)]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
w = torch.ones(2, 3, requires_grad=True)
print(w.t(), w.T, w.transpose(0, 1), w.permute(1, 0), w.mT)
