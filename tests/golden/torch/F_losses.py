# cross_entropy (class indices and probabilities, weight, ignore_index, label smoothing),
# nll_loss and mse_loss with reductions.
import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0], [1.0, 1.0, 1.0]])
target = torch.tensor([0, 2, 1])
print(F.cross_entropy(logits, target), F.cross_entropy(logits, target, reduction="sum"),
      F.cross_entropy(logits, target, reduction="none"))
print(F.cross_entropy(logits, target, weight=torch.tensor([1.0, 2.0, 0.5])),
      F.cross_entropy(logits, torch.tensor([0, -100, 1])), F.cross_entropy(logits, target, ignore_index=2))
print(F.cross_entropy(logits, target, label_smoothing=0.1), F.cross_entropy(logits, F.softmax(logits * 2, 1)))
print(F.cross_entropy(logits.reshape(1, 3, 3), target.reshape(1, 3)))
print(F.nll_loss(F.log_softmax(logits, 1), target), F.nll_loss(logits, target, reduction="none"))
p = torch.tensor([1.0, 2.0, 3.0])
t = torch.tensor([1.5, 2.0, 5.0])
print(F.mse_loss(p, t), F.mse_loss(p, t, reduction="sum"), F.mse_loss(p, t, reduction="none"))
print(F.mse_loss(p, t, weight=torch.tensor([1.0, 0.0, 2.0])))
print(nn.CrossEntropyLoss()(logits, target), nn.MSELoss(reduction="sum")(p, t), nn.CrossEntropyLoss(), nn.MSELoss())
try:
    F.cross_entropy(logits, torch.tensor([0, 5, 1]))
except (IndexError, RuntimeError) as e:
    print(type(e).__name__, e)
try:
    F.cross_entropy(logits, target.float())
except RuntimeError as e:
    print(type(e).__name__, e)
print(F.cross_entropy(logits.requires_grad_(), target), F.mse_loss(p.requires_grad_(), t))
print(F.cross_entropy(logits, target, reduce=False), F.mse_loss(p, t, size_average=False),
      F.nll_loss(logits, target, size_average=True, reduce=True))
ce = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]), label_smoothing=0.05)
print(ce, ce(logits, target), ce.state_dict(), nn.NLLLoss()(F.log_softmax(logits, 1), target))
print(nn.MSELoss(reduce=False)(p, t), nn.CrossEntropyLoss(None, None, 2)(logits, target))
