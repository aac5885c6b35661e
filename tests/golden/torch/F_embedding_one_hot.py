# F.one_hot and F.embedding lookups.
import torch
import torch.nn.functional as F

print(F.one_hot(torch.tensor([0, 2, 1])), F.one_hot(torch.tensor([[0], [3]]), num_classes=5))
print(F.one_hot(torch.arange(3), 4).dtype, F.one_hot(torch.tensor([], dtype=torch.int64), 3).shape)
try:
    F.one_hot(torch.tensor([0, 5]), 3)
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    F.one_hot(torch.tensor([0.0]))
except RuntimeError as e:
    print(type(e).__name__, e)
table = torch.arange(12.0).reshape(4, 3)
print(F.embedding(torch.tensor([[0, 3], [1, 1]]), table))
