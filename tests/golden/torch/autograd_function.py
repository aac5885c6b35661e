# torch.autograd.Function as PyTorch runs it: a custom exp saving its output, a clamp with a
# straight-through gradient, several inputs with a non-tensor argument and needs_input_grad,
# two outputs one of which is marked non-differentiable, an input returned as it is,
# materialized zero gradients, gradcheck, the node's name and next_functions, and the errors
# for a wrong number of gradients, a wrong shape and a second backward.
import torch
from torch.autograd import Function, gradcheck


class MyExp(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        (y,) = ctx.saved_tensors
        return grad * y


class StraightThroughRound(Function):
    @staticmethod
    def forward(ctx, x):
        return x.round()

    @staticmethod
    def backward(ctx, grad):
        return grad


class ScaleAdd(Function):
    @staticmethod
    def forward(ctx, a, b, scale):
        ctx.scale = scale
        ctx.save_for_backward(a, b)
        print("needs_input_grad", ctx.needs_input_grad)
        return a * scale + b * b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return grad * ctx.scale, grad * 2 * b, None


class SortWithIndex(Function):
    @staticmethod
    def forward(ctx, x):
        values, index = x.sort()
        ctx.mark_non_differentiable(index)
        ctx.save_for_backward(index)
        return values, index

    @staticmethod
    def backward(ctx, grad_values, grad_index):
        (index,) = ctx.saved_tensors
        print("grad_index", grad_index)
        out = torch.zeros_like(grad_values)
        out[index] = grad_values
        return out


class Identity(Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad * 3


x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = MyExp.apply(x)
print(y.grad_fn.name(), y.requires_grad, y.grad_fn.next_functions[0][0].name())
y.sum().backward()
print("exp grad", x.grad)
print("gradcheck", gradcheck(MyExp.apply, (torch.randn(4, dtype=torch.float64, requires_grad=True),)))

x.grad = None
StraightThroughRound.apply(x * 3).sum().backward()
print("ste", x.grad)

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = torch.tensor([1.0, 1.0])
out = ScaleAdd.apply(a, b, 0.5)
out.sum().backward()
print("scale add", a.grad, b.grad)
print(ScaleAdd.apply(a, c, 2.0).requires_grad)

s = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
values, index = SortWithIndex.apply(s)
print(values.requires_grad, index.requires_grad)
(values * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print("sort grad", s.grad)

i = torch.ones(2, requires_grad=True)
j = Identity.apply(i)
print(j is i, j.grad_fn.name(), i.grad_fn)
j.sum().backward()
print("identity grad", i.grad)

with torch.no_grad():
    print("no_grad", MyExp.apply(x).requires_grad)
print("no grad inputs", MyExp.apply(torch.ones(2)).requires_grad)


class TooFew(Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, grad):
        return grad


class WrongShape(Function):
    @staticmethod
    def forward(ctx, a):
        return a.sum()

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(1)


for fn, args in ((TooFew, (a, b)), (WrongShape, (a,))):
    try:
        fn.apply(*args).sum().backward()
    except RuntimeError as e:
        print("RuntimeError:", e)
z = MyExp.apply(x).sum()
z.backward()
try:
    z.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])


# Inside a compiled function the custom function still gets its own backward.
def f(x):
    return MyExp.apply(x * 2).sum() + x.sin().sum()


x = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
out = torch.compile(f)(x)
out.backward()
print("compiled", round(out.item(), 4), x.grad)
