# shape, size(), dim(), numel(), stride(), is_contiguous() and friends, on contiguous and
# strided tensors.
import torch

x = torch.arange(24.0).reshape(2, 3, 4)
print(x.shape, x.size(), x.size(1), x.size(-1), x.shape[0], x.shape[-2:])
print(x.dim(), x.ndim, x.ndimension(), x.numel(), x.nelement(), torch.numel(x), len(x))
print(x.stride(), x.stride(0), x.stride(-1), x.is_contiguous(), x.storage_offset())
t = x.transpose(0, 2)
print(t.shape, t.stride(), t.is_contiguous(), t.contiguous().stride())
s = x[:, 1:, ::2]
print(s.shape, s.stride(), s.storage_offset(), s.is_contiguous())
e = torch.tensor([1.0, 2.0]).expand(3, 2)
print(e.shape, e.stride(), e.is_contiguous())
print(x.element_size(), x.itemsize, x.nbytes, x.half().element_size(), torch.ones(3, dtype=torch.bool).nbytes)
print(torch.tensor(5).shape, torch.tensor(5).dim(), torch.tensor(5).numel(), torch.tensor(5).stride())
print(type(x.shape).__name__, x.shape == (2, 3, 4), x.shape == torch.Size([2, 3, 4]), list(x.shape))
print(x.shape.numel(), tuple(x.shape), torch.Size([1, 2]), torch.Size())
a, b, c = x.shape
print(a, b, c, x.size()[1:])
try:
    x.size(3)
except IndexError as e:
    print(type(e).__name__, e)
try:
    len(torch.tensor(1.0))
except TypeError as e:
    print(type(e).__name__, e)
