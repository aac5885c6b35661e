# In-place ops written back from an out-of-place result (addmm_, addcmul_, add_ with alpha,
# masked_fill_, cumsum_, scatter_, leaky_relu(inplace=True)) on tensors with history: gradients
# and node names as PyTorch's, with no false in-place error.
import torch
x = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
m = torch.tensor([[0.5, 1.0], [2.0, -1.0]], requires_grad=True)
for name, op in (("addmm_", lambda y: y.addmm_(m, m)), ("addcmul_", lambda y: y.addcmul_(m, m)),
                 ("add_alpha", lambda y: y.add_(m, alpha=2)), ("masked_fill_", lambda y: y.masked_fill_(m > 0, 1.0)),
                 ("cumsum_", lambda y: y.cumsum_(1)), ("scatter_", lambda y: y.scatter_(1, torch.tensor([[0], [1]]), 5.0)),
                 ("leaky", lambda y: torch.nn.functional.leaky_relu(y, 0.1, inplace=True))):
    x.grad = None
    m.grad = None
    y = x * 2
    op(y)
    (y * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    print(name, y.grad_fn.name(), x.grad, m.grad)
