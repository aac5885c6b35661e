# The add*-products when alpha == 0 (addmv and addbmm skip the product: inf in it does not
# spread; baddbmm and addr multiply it by zero), addmv's dtype, bincount's checks in order.
import torch

inf = float("inf")
print(torch.addmv(torch.ones(2), torch.full((2, 2), inf), torch.ones(2), alpha=0))
print(torch.addmv(torch.ones(2), torch.full((2, 2), inf), torch.ones(2), alpha=0, beta=0))
print(torch.addbmm(torch.ones(2, 2), torch.full((1, 2, 2), inf), torch.ones(1, 2, 2), alpha=0))
print(torch.baddbmm(torch.ones(1, 2, 2), torch.full((1, 2, 2), inf), torch.ones(1, 2, 2), alpha=0))
print(torch.addr(torch.ones(2, 2), torch.full((2,), inf), torch.ones(2), alpha=0))
print(torch.addmv(torch.ones(2, dtype=torch.float64), torch.ones(2, 2), torch.ones(2)).dtype)
print(torch.addr(torch.ones(2, 2, dtype=torch.float64), torch.ones(2), torch.ones(2)).dtype)
for f in [lambda: torch.bincount(torch.tensor([], dtype=torch.long), weights=torch.ones(3)),
          lambda: torch.bincount(torch.tensor([True]))]:
    try:
        print(f())
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
