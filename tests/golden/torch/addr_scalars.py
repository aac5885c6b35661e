# addr checks its beta and alpha against the result's dtype (integral results refuse a float,
# non-bool results a bool); baddbmm and addmv take a float on integral tensors as an integer.
import torch

li = torch.ones(2, 2, dtype=torch.long)
lv = torch.ones(2, dtype=torch.long)
for f in [lambda: torch.addr(li, lv, lv, beta=0.5), lambda: torch.addr(li, lv, lv, alpha=1.5),
          lambda: torch.addr(torch.ones(2, 2), torch.ones(2), torch.ones(2), beta=True),
          lambda: torch.addr(torch.ones(2, 2), torch.ones(2), torch.ones(2), alpha=True),
          lambda: torch.baddbmm(li.view(1, 2, 2), li.view(1, 2, 2), li.view(1, 2, 2), beta=0.5),
          lambda: torch.addmv(lv, li, lv, beta=0.5), lambda: torch.addr(li, lv, lv, beta=2),
          lambda: torch.addr(torch.zeros(2, 2, dtype=torch.bool), torch.tensor([True, False]),
                             torch.tensor([True, True]), beta=2)]:
    try:
        print("ok", f().tolist())
    except RuntimeError as e:
        print(type(e).__name__, e)
