# Derivatives of scatter (a source and a value), scatter_add and scatter_reduce('sum', with and
# without include_self): float64 gradchecks, node names, and the error for an index smaller than
# its source.
import torch
from torch.autograd import gradcheck

torch.manual_seed(0)
torch.set_num_threads(1)
def r(*s):
    return torch.randn(*s, dtype=torch.float64, requires_grad=True)

x = r(3, 5)
src = r(2, 5)
index = torch.tensor([[0, 1, 2, 0, 1], [2, 0, 1, 2, 0]])
print("scatter", gradcheck(lambda a, s: a.scatter(0, index, s), (x, src)))
print("scatter value", gradcheck(lambda a: a.scatter(1, torch.tensor([[0, 2], [1, 3], [4, 0]]), 2.5), (x,)))
dup = torch.tensor([[0, 0, 1, 1, 2]])
print("scatter_add", gradcheck(lambda a, s: a.scatter_add(0, dup, s[:1]), (x, src)))
print("scatter_reduce sum", gradcheck(lambda a, s: a.scatter_reduce(0, index, s, "sum"), (x, src)),
      gradcheck(lambda a, s: a.scatter_reduce(0, index, s, "sum", include_self=False), (x, src)))
names = [x.scatter(0, index, src).grad_fn.name(), x.scatter(0, index, 1.0).grad_fn.name(),
         x.scatter_add(0, index, src).grad_fn.name(), x.scatter_reduce(0, index, src, "sum").grad_fn.name()]
print(names)
big = torch.arange(12.0, dtype=torch.float64).reshape(3, 4).requires_grad_()
small = torch.tensor([[1, 0]])
out = torch.zeros(2, 4, dtype=torch.float64).scatter(0, small, big)
try:
    out.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
base = torch.ones(3, requires_grad=True)
y = base.scatter(0, torch.tensor([1]), torch.tensor([5.0]))
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print("base grad", base.grad)
