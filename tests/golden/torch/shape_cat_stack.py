# cat / concat / concatenate and stack: dims, type promotion, empty tensors, errors.
import torch

a = torch.arange(6.0).reshape(2, 3)
b = torch.ones(1, 3)
print(torch.cat([a, b]), torch.cat((a, a), dim=1), torch.cat([a, b], 0).shape, torch.concat([a, a], -1).shape)
print(torch.concatenate([a, b], axis=0).shape, torch.cat([a]).shape, torch.cat([a, torch.zeros(0)]).shape)
print(torch.cat([torch.tensor([1, 2]), torch.tensor([1.5])]), torch.cat([torch.tensor([True]), torch.tensor([2])]))
print(torch.stack([a, a]).shape, torch.stack([a, a], 1), torch.stack((a, a), dim=-1).shape)
print(torch.stack([torch.tensor(1.0), torch.tensor(2.0)]), torch.stack([torch.tensor([1]), torch.tensor([2.5])]))
out = torch.empty(0)
torch.cat([a, a], out=out)
print(out.shape)
for bad in [lambda: torch.cat([a, torch.ones(2, 2)]), lambda: torch.stack([a, b]),
            lambda: torch.cat([]), lambda: torch.cat([a, torch.ones(3)]), lambda: torch.stack([]),
            lambda: torch.cat([a, a], 2)]:
    try:
        bad()
    except (RuntimeError, IndexError, ValueError) as e:
        print(type(e).__name__, e)
for bad in [lambda: torch.cat(a), lambda: torch.cat([a, 1])]:
    try:
        bad()
    except TypeError as e:
        print(type(e).__name__, e)
w = torch.ones(2, requires_grad=True)
print(torch.cat([w, w]), torch.stack([w, torch.zeros(2)]))
