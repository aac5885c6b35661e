# torch.randint_like: input shape and dtype, bounds respected (values are random: only checked).
import torch
torch.manual_seed(0)
x = torch.zeros(4, 5)
r = torch.randint_like(x, 10)
print(r.shape, r.dtype, bool(((r >= 0) & (r < 10)).all()), bool((r == r.floor()).all()))
r2 = torch.randint_like(x, 3, 7, dtype=torch.int64)
print(r2.dtype, bool(((r2 >= 3) & (r2 < 7)).all()))
