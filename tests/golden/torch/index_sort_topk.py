# sort, argsort and topk with their named-tuple results.
import torch

x = torch.tensor([[3.0, 1.0, 2.0, 1.0], [0.0, 5.0, 4.0, 5.0]])
print(torch.sort(x), x.sort(descending=True), x.sort(0), torch.sort(x, dim=1, stable=True))
v, i = x.sort(1)
print(v, i, x.argsort(), torch.argsort(x, dim=0, descending=True), x.argsort(stable=True))
y = torch.tensor([[3.0, 1.0, 2.0, 7.0], [0.0, 5.0, 4.0, 6.0]])
print(y.topk(2), torch.topk(y, 1, dim=0), y.topk(3, largest=False), y.topk(2, sorted=True).indices)
t = torch.topk(torch.tensor([5, 1, 9, 3]), 2)
print(t.values, t.indices, t[0], type(t).__name__)
print(torch.sort(torch.tensor([2, float("nan"), 1.0])), torch.tensor([True, False, True]).sort())
try:
    x.topk(5)
except RuntimeError as e:
    print(type(e).__name__, e)
w = x.clone().requires_grad_()
print(w.sort(1).values, w.topk(1).values)
