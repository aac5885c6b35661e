# F.pad's derivative in constant mode (issue 16): positive pads (the gradient cropped back),
# negative pads (cropping: zeros where the input was cut), mixed, over one to three dims, by
# float64 gradcheck (and of the first gradient taken with create_graph: the second derivative),
# with PyTorch's node name and deterministic gradients.
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck

torch.manual_seed(0)
x = torch.randn(2, 3, 4, 5, dtype=torch.float64, requires_grad=True)


def first_grad(t, pad):
    (g,) = torch.autograd.grad((F.pad(t, pad) ** 3).sum(), t, create_graph=True)
    return g


for pad in ([1, 2], [0, 0, 2, 1], [-1, 1], [1, -2, -1, 2], [1, 1, 1, 1, 1, 1], [-2, -2]):
    out = F.pad(x, pad, value=0.5)
    print(pad, tuple(out.shape), out.grad_fn.name(),
          gradcheck(lambda t: F.pad(t, pad, value=0.5), (x,)),
          gradcheck(lambda t: first_grad(t, pad), (x,)))
a = torch.arange(6.0).reshape(2, 3).requires_grad_()
w = torch.arange(15.0).reshape(3, 5)
(F.pad(a, [1, 1, -1, 2], value=3.0) * w).sum().backward()
print(a.grad)
