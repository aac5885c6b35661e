# torch.nn.modules._functions: the identity autograd Function through which a module with full
# backward hooks passes its tensor arguments and results (torch.utils.hooks.BackwardHook).
import torch


class BackwardHookFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, on_backward, *args):
        ctx.on_backward = on_backward
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        ctx.set_materialize_grads(False)  # a result nothing used gets None, as in PyTorch
        return args

    @staticmethod
    def backward(ctx, *grads):
        return (None,) + tuple(ctx.on_backward(grads))
