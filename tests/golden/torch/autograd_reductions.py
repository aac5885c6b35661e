# Derivatives of prod (all, over a dim, with one and with two zeros), cumsum and cumprod (zeros,
# float32 to float64, a 0-d input), torch.norm (linalg.vector_norm's derivative; orders 0, 1, 2,
# 3, 1.5, 0.5, inf, -inf; over all and over dims; a zero vector), gelu(approximate='tanh'), and
# mse_loss with reduction='none': each checked by a float64 numerical gradcheck as PyTorch's,
# with the gradients' values printed where zeros make the formula special.
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck

torch.manual_seed(0)
torch.set_num_threads(1)
def r(*s):
    return torch.randn(*s, dtype=torch.float64, requires_grad=True)

x = r(3, 4)
print("prod", gradcheck(lambda a: a.prod(), (x,)))
print("prod dim", gradcheck(lambda a: a.prod(1), (x,)), gradcheck(lambda a: a.prod(0, keepdim=True), (x,)))
print("prod grad_fn", x.prod().grad_fn.name(), x.prod(1).grad_fn.name())
z1 = torch.tensor([2.0, 0.0, 3.0, 4.0], dtype=torch.float64, requires_grad=True)
z1.prod().backward()
print("prod one zero", z1.grad)
z2 = torch.tensor([[2.0, 0.0, 0.0], [1.0, 5.0, 0.0]], dtype=torch.float64, requires_grad=True)
z2.prod(1).sum().backward()
print("prod zeros by row", z2.grad)
print("cumsum", gradcheck(lambda a: a.cumsum(0), (x,)), gradcheck(lambda a: a.cumsum(-1), (x,)))
print("cumsum grad_fn", x.cumsum(1).grad_fn.name())
f = torch.randn(5, requires_grad=True)
f.cumsum(0, dtype=torch.float64).pow(2).sum().backward()
print("cumsum dtype grad", f.grad.dtype, f.grad.shape)
for p in (0, 1, 2, 3, 1.5, 0.5, float("inf"), float("-inf")):
    print("norm", p, gradcheck(lambda a: torch.norm(a, p), (x,)),
          gradcheck(lambda a: torch.norm(a, p, dim=1, keepdim=True), (x,)),
          gradcheck(lambda a: a.norm(p, dim=(0, 1)), (x,)))
print("norm grad_fn", torch.norm(x, 3).grad_fn.name(), x.norm().grad_fn.name())
zero = torch.zeros(3, dtype=torch.float64, requires_grad=True)
zero.norm().backward()
print("norm of zeros", zero.grad)
ties = torch.tensor([1.0, -3.0, 3.0, 2.0], dtype=torch.float64, requires_grad=True)
torch.norm(ties, float("inf")).backward()
print("inf norm ties", ties.grad)
print("gelu tanh", gradcheck(lambda a: F.gelu(a, approximate="tanh"), (x,)))
print("gelu tanh grad_fn", F.gelu(x, approximate="tanh").grad_fn.name())
t = r(3, 4)
print("mse none", gradcheck(lambda a, b: F.mse_loss(a, b, reduction="none"), (x, t)))
print("mse none grad_fn", F.mse_loss(x, t, reduction="none").grad_fn.name())
x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
print("cumprod", gradcheck(lambda a: a.cumprod(0), (x,)), gradcheck(lambda a: a.cumprod(1), (x,)), gradcheck(lambda a: torch.cumprod(a, -1), (x,)))
print(x.cumprod(1).grad_fn.name())
z = torch.tensor([[2.0, 0.0, 3.0, 0.0, 5.0], [1.0, 2.0, 0.0, 4.0, 1.0]], dtype=torch.float64, requires_grad=True)
(z.cumprod(1) * torch.arange(1.0, 6.0, dtype=torch.float64)).sum().backward()
print("zeros", z.grad)
f = torch.tensor([1.5, -2.0, 0.5], requires_grad=True)
f.cumprod(0, dtype=torch.float64).sum().backward()
print(f.grad.dtype, f.grad)
s = torch.tensor(3.0, requires_grad=True)
s.cumprod(0).backward()
print("scalar", s.grad)
