# Every in-place write to a tensor whose value autograd saved (exp saves its output) is caught
# at backward with PyTorch's error, under no_grad too; in-place unary ops on tensors that need
# grad differentiate with the input as it was (sin_, log_, sqrt_).
import torch


def set_first(y):
    y[0] = 7.0


def set_slice(y):
    y[0:2] = torch.zeros(2)


ops = {
    "zero_": lambda y: y.zero_(),
    "fill_": lambda y: y.fill_(1.0),
    "copy_": lambda y: y.copy_(torch.ones(3)),
    "masked_fill_": lambda y: y.masked_fill_(torch.tensor([True, False, True]), 0.0),
    "clamp_": lambda y: y.clamp_(0, 1),
    "add_": lambda y: y.add_(1),
    "mul_": lambda y: y.mul_(2),
    "scatter_": lambda y: y.scatter_(0, torch.tensor([0]), torch.tensor([5.0])),
    "index_add_": lambda y: y.index_add_(0, torch.tensor([1]), torch.tensor([5.0])),
    "setitem_basic": set_first,
    "setitem_slice": set_slice,
    "relu_": lambda y: y.relu_(),
    "exp_": lambda y: y.exp_(),
    "uniform_": lambda y: y.uniform_(),
    "normal_": lambda y: y.normal_(),
    "index_fill_": lambda y: y.index_fill_(0, torch.tensor([1]), 0.0),
    "sub_": lambda y: y.sub_(1),
    "div_": lambda y: y.div_(2),
    "pow_": lambda y: y.pow_(2),
    "sigmoid_": lambda y: y.sigmoid_(),
    "addcmul_": lambda y: y.addcmul_(torch.ones(3), torch.ones(3)),
    "lerp_": lambda y: y.lerp_(torch.ones(3), 0.5),
}
for name, op in ops.items():
    x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
    y = x.exp()
    try:
        with torch.no_grad():
            op(y)
        y.sum().backward()
        print(name, "no error", x.grad)
    except Exception as e:
        print(name, type(e).__name__)

for name in ("sin_", "log_", "sqrt_", "tanh_", "sigmoid_", "exp_"):
    x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
    y = x * 1
    getattr(y, name)()
    y.sum().backward()
    print(name, y.grad_fn.name(), x.grad)
