# torch.autograd.Function: a differentiable op written in Python. apply() runs forward(ctx, ...)
# with grad mode off, then hands the outputs a node (torch._kiln._function_node, Kiln's
# PythonFunctionBackward) that calls backward(ctx, *grads) when the engine reaches it.
import torch
from torch._kiln import _function_node


class FunctionCtx:
    def save_for_backward(self, *tensors):
        for t in tensors:
            if t is not None and not isinstance(t, torch.Tensor):
                raise TypeError("save_for_backward can only save variables, but argument "
                                f"{tensors.index(t)} is of type {type(t).__name__}")
        self._saved = tensors

    @property
    def saved_tensors(self):
        if getattr(self, "_released", False):
            raise RuntimeError(
                "Trying to backward through the graph a second time (or directly access saved "
                "tensors after they have already been freed). Saved intermediate values of the "
                "graph are freed when you call .backward() or autograd.grad(). Specify "
                "retain_graph=True if you need to backward through the graph a second time or "
                "if you need to access saved tensors after calling backward.")
        return getattr(self, "_saved", ())

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = tensors

    def mark_dirty(self, *tensors):
        self._dirty = tensors

    def set_materialize_grads(self, value):
        self._materialize_grads = bool(value)


class BackwardCFunction(FunctionCtx):
    pass


class Function:
    def __init__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = BackwardCFunction()
        ctx.needs_input_grad = tuple(isinstance(a, torch.Tensor) and a.requires_grad
                                     for a in args)
        with torch.no_grad():
            if cls.setup_context is Function.setup_context:
                outputs = cls.forward(ctx, *args, **kwargs)
            else:  # the PyTorch 2 style: forward without ctx, then setup_context saves
                outputs = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, outputs)
        return _function_node(cls.__name__ + "Backward", cls.backward, ctx, args, outputs)


class _SingleLevelFunction(Function):
    pass


def once_differentiable(fn):
    return fn
