# outer (ger), dot, vdot.
import torch

u = torch.tensor([1.0, 2.0, 3.0])
v = torch.tensor([4.0, 5.0, 6.0])
print(torch.outer(u, v), u.outer(v[:2]), torch.ger(u, v).shape, torch.dot(u, v), u.dot(v), torch.vdot(u, v))
print(torch.dot(torch.tensor([1, 2]), torch.tensor([3, 4])), torch.outer(torch.tensor([1, 2]), torch.tensor([0.5])))
for bad in [lambda: torch.dot(u, v[:2]), lambda: torch.dot(u, torch.tensor([1, 2, 3])),
            lambda: torch.dot(u.reshape(3, 1), v)]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
print(torch.dot(u.requires_grad_(), v), torch.outer(u, v).shape)
