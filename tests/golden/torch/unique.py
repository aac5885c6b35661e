# unique (sorted, return_inverse, return_counts, dim=None / dim=0 / dim=1), Tensor.unique,
# unique_consecutive.
import torch

# unique: sorted ascending; inverse has input's shape; counts parallel to the values.
u = torch.tensor([[3, 1, 2], [1, 3, 3]])
print(torch.unique(u), u.unique(), torch.unique(u, sorted=True))
print(torch.unique(u, return_inverse=True))
print(torch.unique(u, return_counts=True))
print(torch.unique(u, return_inverse=True, return_counts=True))
f = torch.tensor([2.5, -1.0, 2.5, 0.0, 0.0, 7.0])
vals, inv, cnt = f.unique(return_inverse=True, return_counts=True)
print(vals, inv, cnt, vals.dtype, inv.dtype, cnt.dtype)
print(torch.unique(torch.tensor([True, False, True])), torch.unique(torch.tensor([], dtype=torch.int64), return_counts=True))
rows = torch.tensor([[1, 2], [0, 5], [1, 2], [0, 4], [0, 5]])
print(torch.unique(rows, dim=0))
print(torch.unique(rows, dim=0, return_inverse=True, return_counts=True))
print(torch.unique(rows.t(), dim=1), torch.unique(rows, dim=-1))
print(torch.unique(torch.tensor(4)), torch.unique(torch.tensor(4), return_inverse=True))
# unique_consecutive: collapses runs only; no sorting.
c = torch.tensor([2, 2, 1, 1, 1, 2, 3, 3, 2])
print(torch.unique_consecutive(c), c.unique_consecutive())
print(torch.unique_consecutive(c, return_inverse=True, return_counts=True))
print(torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 0], [1, 1]]), dim=0, return_counts=True))
print(torch.unique_consecutive(torch.tensor([1.0, 1.0, float("nan"), float("nan"), 3.0])))
for bad in [lambda: torch.unique(torch.tensor([[1, 2]]), dim=2),
            lambda: torch.unique_consecutive(torch.tensor([[1, 2]]), dim=-3)]:
    try:
        bad()
    except IndexError as e:
        print(type(e).__name__, e)
