# masked_fill with number and 0-dim tensor values, broadcasting masks, in place.
import torch

x = torch.arange(6.0).reshape(2, 3)
m = x > 2
print(x.masked_fill(m, -1.0), torch.masked_fill(x, m, 0), x.masked_fill(m, torch.tensor(9.0)))
print(x.masked_fill(torch.tensor([True, False, True]), float("-inf")))
print(x.masked_fill(torch.tensor([[True], [False]]), 7))
i = torch.arange(4)
print(i.masked_fill(i > 1, 3.7), i.masked_fill(i == 0, True))
scores = torch.zeros(3, 3)
causal = torch.triu(torch.ones(3, 3, dtype=torch.bool), diagonal=1)
print(scores.masked_fill(causal, float("-inf")).softmax(-1))
y = x.clone()
r = y.masked_fill_(m, 0.5)
print(r is y, y)
try:
    x.masked_fill(x, 1.0)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.masked_fill(m, torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print(type(e).__name__, e)
w = torch.ones(2, requires_grad=True)
print(w.masked_fill(torch.tensor([True, False]), 0.0), w.masked_fill(torch.tensor([True, False]), torch.tensor(0.0)))
