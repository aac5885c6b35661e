# torch.autograd.graph for Kiln workloads: Node, the base class of every grad_fn's class
# (type(y.grad_fn) is MulBackward0, a subclass of Node, as in PyTorch).
from torch._kiln import _GradFnNode as Node
