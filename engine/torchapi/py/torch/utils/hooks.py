# torch.utils.hooks: RemovableHandle, what register_forward_hook and its kin return.


class RemovableHandle:
    # Ids are unique over the process, as PyTorch's: a handle removes exactly the hook it
    # registered, from the dict it was registered in and from the flag dicts beside it
    # (with_kwargs, always_call). The dicts are held strongly: Kiln has no weak references,
    # and a handle that outlives its module keeps only empty dicts alive.
    next_id = 0

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = hooks_dict
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        if extra_dict is None:
            extra_dict = []
        elif isinstance(extra_dict, dict):
            extra_dict = [extra_dict]
        self.extra_dict_ref = tuple(extra_dict)

    def remove(self):
        for table in (self.hooks_dict_ref,) + self.extra_dict_ref:
            if self.id in table:
                del table[self.id]

    def __enter__(self):
        return self

    def __exit__(self, type, value, tb):
        self.remove()


# Module full backward hooks (register_full_backward_hook / register_full_backward_pre_hook), as
# PyTorch's BackwardHook does it: the module's tensor arguments and its tensor results each pass
# through an identity autograd Function (BackwardHookFunction), whose backward sees the
# gradients of the results (grad_output: the pre-hooks may replace them) and then of the
# arguments (grad_input: the hooks get both and may replace grad_input).
def _pack(indices, values, size):
    packed = [None] * size
    for i, v in zip(indices, values):
        packed[i] = v
    return tuple(packed)


class BackwardHook:
    def __init__(self, module, hooks, pre_hooks):
        self.module = module
        self.hooks = hooks
        self.pre_hooks = pre_hooks
        self.grad_outputs = None
        self.n_inputs = 0
        self.input_index = None
        self.n_outputs = 0
        self.output_index = None

    def _wrap(self, values, on_backward):
        """The tensors of `values` through one BackwardHookFunction (when grad is on and one of
        them requires it), and their positions; `values` as they are otherwise."""
        import torch  # torch imports this module while it starts
        index = [i for i, v in enumerate(values) if isinstance(v, torch.Tensor)]
        if not (torch.is_grad_enabled() and any(values[i].requires_grad for i in index)):
            return values, None
        from torch.nn.modules._functions import BackwardHookFunction
        wrapped = BackwardHookFunction.apply(on_backward, *[values[i] for i in index])
        values = list(values)
        for i, t in zip(index, wrapped):
            values[i] = t
        return tuple(values), index

    def setup_input_hook(self, args):
        self.n_inputs = len(args)
        result, self.input_index = self._wrap(args, self._input_grads)
        return result

    def setup_output_hook(self, result):
        single = not isinstance(result, tuple)
        values = (result,) if single else result
        self.n_outputs = len(values)
        wrapped, self.output_index = self._wrap(values, self._output_grads)
        return wrapped[0] if single else wrapped

    def _output_grads(self, grads):
        self.grad_outputs = _pack(self.output_index, grads, self.n_outputs)
        for hook in self.pre_hooks.values():
            replaced = hook(self.module, self.grad_outputs)
            if replaced is None:
                continue
            if len(replaced) != len(self.grad_outputs):
                raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                                   f"got {len(replaced)}, but expected {len(self.grad_outputs)}")
            self.grad_outputs = tuple(replaced)
        local = self.grad_outputs
        if self.input_index is None:
            # No argument requires grad: the hooks run now, with grad_input all None.
            grad_inputs = _pack([], [], self.n_inputs)
            for hook in self.hooks.values():
                res = hook(self.module, grad_inputs, self.grad_outputs)
                if res is not None and not (isinstance(res, tuple) and
                                            all(r is None for r in res)):
                    raise RuntimeError("Backward hook for Modules where no input requires "
                                       "gradient should always return None or None for all "
                                       "gradients.")
            self.grad_outputs = None
        return tuple(local[i] for i in self.output_index)

    def _input_grads(self, grads):
        if self.grad_outputs is None:  # no result got a gradient
            return grads
        res = _pack(self.input_index, grads, self.n_inputs)
        for hook in self.hooks.values():
            out = hook(self.module, res, self.grad_outputs)
            if out is None:
                continue
            if len(out) != len(res):
                raise RuntimeError("Backward hook returned an invalid number of grad_input, got "
                                   f"{len(out)}, but expected {len(res)}")
            res = out
        self.grad_outputs = None
        return tuple(res[i] for i in self.input_index)
