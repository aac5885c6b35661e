# index_add / index_add_ (alpha=), index_copy / index_copy_, index_fill / index_fill_: repeated
# indices, negative dims, dtypes, grad_fn names; errors.
import torch

x = torch.ones(3, 4)
src = torch.arange(1.0, 9.0).reshape(2, 4)
print(x.index_add(0, torch.tensor([2, 0]), src), torch.index_add(x, 0, torch.tensor([1, 1]), src, alpha=2))
cols = torch.arange(6.0).reshape(3, 2)
r = x.index_add_(-1, torch.tensor([3, 0]), cols, alpha=-1)
print(r is x, x)
i = torch.zeros(5, dtype=torch.int64)
print(i.index_add_(0, torch.tensor([0, 0, 4], dtype=torch.int32), torch.tensor([1, 2, 3]), alpha=3))
print(torch.zeros(2, 3, dtype=torch.float64).index_add(1, torch.tensor([2]), torch.tensor([[1.5], [2.5]], dtype=torch.float64)))
# index_copy: rows / columns replaced (index must be int64).
y = torch.zeros(3, 4)
print(y.index_copy(0, torch.tensor([2, 0]), src), torch.index_copy(y, 1, torch.tensor([1, 3]), cols))
print(y.index_copy_(-2, torch.tensor([1]), torch.tensor([[9.0, 8.0, 7.0, 6.0]])), y)
# index_fill: scalar or 0-dim tensor value, cast to self's dtype.
f = torch.arange(12).reshape(3, 4)
print(f.index_fill(1, torch.tensor([0, 2]), -1), f.index_fill(0, torch.tensor([1]), torch.tensor(9)))
print(f.clone().index_fill_(-1, torch.tensor([3, 3]), 2.9), torch.zeros(2, 2).index_fill_(0, torch.tensor([0]), 1.25))
g = torch.zeros(3, requires_grad=True)
print(g.index_add(0, torch.tensor([1]), torch.ones(1)),
      g.index_fill(0, torch.tensor([2]), 3.0), g.index_copy(0, torch.tensor([0]), torch.ones(1)))
for bad in [lambda: torch.zeros(3, 4).index_add(0, torch.tensor([0]), torch.ones(1, 4, dtype=torch.int64)),
            lambda: torch.zeros(3, 4).index_copy(0, torch.tensor([0], dtype=torch.int32), torch.ones(1, 4)),
            lambda: torch.zeros(3, 4).index_fill(0, torch.tensor([0], dtype=torch.int32), 1.0)]:
    try:
        bad()
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
