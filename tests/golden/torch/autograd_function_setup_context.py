# torch.autograd.Function in PyTorch 2's style (issue 16): forward(*args) without ctx, and
# setup_context(ctx, inputs, output) saving what backward needs; gradients by float64
# gradcheck, node names, a non-tensor argument, two outputs, and the classic style unchanged.
import torch
from torch.autograd import gradcheck


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x, scale):
        return x ** 3 * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, scale = inputs
        ctx.save_for_backward(x)
        ctx.scale = scale

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * 3 * x ** 2 * ctx.scale, None


class SinCos(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.sin(), x.cos()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, gs, gc):
        (x,) = ctx.saved_tensors
        return gs * x.cos() - gc * x.sin()


class Classic(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.exp()


x = torch.linspace(-1, 1, 5, dtype=torch.float64, requires_grad=True)
y = Cube.apply(x, 2.0)
print(y.grad_fn.name(), y)
y.sum().backward()
print(x.grad)
print(gradcheck(lambda t: Cube.apply(t, 0.5), (x,)))
s, c = SinCos.apply(x)
print(s.grad_fn.name(), gradcheck(lambda t: sum(o.sum() for o in SinCos.apply(t)), (x,)))
print(gradcheck(Classic.apply, (x,)))
try:
    torch.autograd.Function.setup_context(None, (), None)
except NotImplementedError as e:
    print("NotImplementedError:", e)
