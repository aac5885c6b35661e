# In-place ops built as an out-of-place result written back (clamp_, clamp_min_, clamp_max_,
# cumprod_, cumsum_, masked_fill_) on tensors with history: the gradient reads the values as
# they were, as PyTorch's does.
import torch
x = torch.tensor([-1.0, 1.0, 3.0], requires_grad=True)
y = x * 2
y.clamp_(0, 5)
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)
x.grad = None
y = x * 2
y.masked_fill_(torch.tensor([True, False, False]), 0.0)
y.sum().backward()
print(x.grad)
for name, op in (("clamp_", lambda y: y.clamp_(0, 5)), ("clamp_min_", lambda y: y.clamp_min_(1.0)),
                 ("clamp_max_", lambda y: y.clamp_max_(1.0)), ("cumprod_", lambda y: y.cumprod_(0)),
                 ("cumsum_", lambda y: y.cumsum_(0))):
    x.grad = None
    y = x * 2
    op(y)
    y.sum().backward()
    print(name, y.grad_fn.name(), x.grad)
