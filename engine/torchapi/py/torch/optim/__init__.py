# torch.optim for Kiln workloads: Optimizer, SGD, Adam, AdamW and the learning-rate schedulers
# (docs/optim.md). Like PyTorch's package, it is an attribute of torch after `import torch`.
from torch.optim import lr_scheduler
from torch.optim.adam import Adam
from torch.optim.adamw import AdamW
from torch.optim.optimizer import Optimizer
from torch.optim.sgd import SGD

__all__ = ["Adam", "AdamW", "Optimizer", "SGD", "lr_scheduler"]

# As in PyTorch, the implementation modules are not attributes of the package (they stay
# importable by name: from torch.optim.optimizer import required).
del adam, adamw, optimizer, sgd
