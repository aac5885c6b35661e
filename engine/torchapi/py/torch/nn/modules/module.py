# torch.nn.modules.module: Module, the base class of every layer (parameters, buffers,
# submodules, state_dict, train/eval, dtype conversion and printing as PyTorch does).
import torch
from collections import OrderedDict
from torch._kiln import Parameter
from torch.utils.hooks import RemovableHandle


def _addindent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    first = lines.pop(0)
    return first + "\n" + "\n".join([" " * spaces + line for line in lines])


def _move_to_front(table, key):
    rest = [(k, v) for k, v in table.items() if k != key]
    value = table[key]
    table.clear()
    table[key] = value
    for k, v in rest:
        table[k] = v


class _IncompatibleKeys:
    # load_state_dict's result: a (missing_keys, unexpected_keys) named tuple in PyTorch.
    def __init__(self, missing_keys, unexpected_keys):
        self.missing_keys = missing_keys
        self.unexpected_keys = unexpected_keys

    def __iter__(self):
        return iter([self.missing_keys, self.unexpected_keys])

    def __getitem__(self, index):
        return [self.missing_keys, self.unexpected_keys][index]

    def __len__(self):
        return 2

    def __eq__(self, other):
        return list(self) == list(other)

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return (f"_IncompatibleKeys(missing_keys={self.missing_keys!r}, "
                f"unexpected_keys={self.unexpected_keys!r})")


class Module:
    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError("Module.__init__() takes no arguments")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent", [])
        object.__setattr__(self, "_modules", {})
        # Forward hooks by handle id, in call order, and the ids registered with_kwargs or
        # always_call. Plain dicts, not PyTorch's OrderedDicts: every module call tests two of
        # them, and the test must cost no more than a dict's truth value.
        object.__setattr__(self, "_forward_hooks", {})
        object.__setattr__(self, "_forward_hooks_with_kwargs", {})
        object.__setattr__(self, "_forward_hooks_always_called", {})
        object.__setattr__(self, "_forward_pre_hooks", {})
        object.__setattr__(self, "_forward_pre_hooks_with_kwargs", {})
        object.__setattr__(self, "_backward_hooks", {})
        object.__setattr__(self, "_backward_pre_hooks", {})

    def forward(self, *args, **kwargs):
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        if (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks or
                self._backward_pre_hooks):
            return self._call_with_hooks(args, kwargs)
        return self.forward(*args, **kwargs)

    def _call_with_hooks(self, args, kwargs):
        backward_hook = None
        if self._backward_hooks or self._backward_pre_hooks:
            from torch.utils.hooks import BackwardHook
            backward_hook = BackwardHook(self, self._backward_hooks, self._backward_pre_hooks)
        result = self._call_with_forward_hooks(args, kwargs, backward_hook)
        return backward_hook.setup_output_hook(result) if backward_hook else result

    def _call_with_forward_hooks(self, args, kwargs, backward_hook):
        # PyTorch's Module._call_impl: pre-hooks may replace the arguments, forward hooks the
        # result; hooks registered with always_call run even when forward raises.
        for hook_id, hook in tuple(self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                replaced = hook(self, args, kwargs)
                if replaced is not None:
                    if isinstance(replaced, tuple) and len(replaced) == 2:
                        args, kwargs = replaced
                    else:
                        raise RuntimeError(
                            "forward pre-hook must return None or a tuple of (new_args, "
                            f"new_kwargs), but got {replaced}.")
            else:
                replaced = hook(self, args)
                if replaced is not None:
                    args = replaced if isinstance(replaced, tuple) else (replaced,)
        if backward_hook:
            args = backward_hook.setup_input_hook(args)
        if not self._forward_hooks_always_called:
            return self._run_forward_hooks(args, kwargs, self.forward(*args, **kwargs), ())
        called = []
        result = None
        try:
            result = self.forward(*args, **kwargs)
            return self._run_forward_hooks(args, kwargs, result, called)
        except Exception:
            for hook_id, hook in tuple(self._forward_hooks.items()):
                if hook_id not in self._forward_hooks_always_called or hook_id in called:
                    continue
                try:
                    result = self._call_forward_hook(hook_id, hook, args, kwargs, result)
                except Exception as e:
                    import warnings
                    warnings.warn("module forward hook with ``always_call=True`` raised an "
                                  "exception that was silenced as another error was raised in "
                                  f"forward: {str(e)}")
            raise

    def _run_forward_hooks(self, args, kwargs, result, called):
        for hook_id, hook in tuple(self._forward_hooks.items()):
            if hook_id in self._forward_hooks_always_called:
                called.append(hook_id)
            result = self._call_forward_hook(hook_id, hook, args, kwargs, result)
        return result

    def _call_forward_hook(self, hook_id, hook, args, kwargs, result):
        if hook_id in self._forward_hooks_with_kwargs:
            hook_result = hook(self, args, kwargs, result)
        else:
            hook_result = hook(self, args, result)
        return result if hook_result is None else hook_result

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        handle = RemovableHandle(self._forward_pre_hooks,
                                 extra_dict=self._forward_pre_hooks_with_kwargs)
        self._forward_pre_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        if prepend:
            _move_to_front(self._forward_pre_hooks, handle.id)
        return handle

    def register_full_backward_hook(self, hook, prepend=False):
        """hook(module, grad_input, grad_output) once the gradients of the module's tensor
        arguments are computed; it may return a replacement grad_input."""
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        if prepend:
            _move_to_front(self._backward_hooks, handle.id)
        return handle

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """hook(module, grad_output) once the gradients of the module's results are known; it
        may return a replacement grad_output."""
        handle = RemovableHandle(self._backward_pre_hooks)
        self._backward_pre_hooks[handle.id] = hook
        if prepend:
            _move_to_front(self._backward_pre_hooks, handle.id)
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False,
                              always_call=False):
        handle = RemovableHandle(
            self._forward_hooks,
            extra_dict=[self._forward_hooks_with_kwargs, self._forward_hooks_always_called])
        self._forward_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        if prepend:
            _move_to_front(self._forward_hooks, handle.id)
        return handle

    def _require_init(self, what):
        if not hasattr(self, "_parameters"):
            raise AttributeError(f"cannot assign {what} before Module.__init__() call")

    def __setattr__(self, name, value):
        if isinstance(value, Parameter):
            self._require_init("parameters")
            self._forget(name)
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._require_init("module")
            self._forget(name)
            self._modules[name] = value
        elif hasattr(self, "_parameters") and name in self._parameters:
            if value is not None:
                raise TypeError(f"cannot assign '{torch.typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self._parameters[name] = value
        elif hasattr(self, "_modules") and name in self._modules:
            if value is not None:
                raise TypeError(f"cannot assign '{torch.typename(value)}' as child module "
                                f"'{name}' (torch.nn.Module or None expected)")
            self._modules[name] = value
        elif hasattr(self, "_buffers") and name in self._buffers:
            if value is not None and not isinstance(value, torch.Tensor):
                raise TypeError(f"cannot assign '{torch.typename(value)}' as buffer '{name}' "
                                "(torch.Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name):
        for table in (self._parameters, self._buffers, self._modules):
            if name in table:
                del table[name]
        if name in self.__dict__:
            object.__delattr__(self, name)

    def __getattr__(self, name):
        # Reached only when the ordinary lookup failed: parameters, buffers and submodules live
        # in their tables, not in the instance namespace. Before Module.__init__ has run the
        # tables do not exist yet, and the error names the attribute that was asked for.
        if name not in ("_parameters", "_buffers", "_modules"):
            try:
                parameters = self._parameters
            except AttributeError:
                parameters = None
            if parameters is not None:
                if name in parameters:
                    return parameters[name]
                buffers = self._buffers
                if name in buffers:
                    return buffers[name]
                modules = self._modules
                if name in modules:
                    return modules[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for table in (self._parameters, self._buffers, self._modules):
            if name in table:
                del table[name]
                return
        object.__delattr__(self, name)

    def register_buffer(self, name, tensor, persistent=True):
        self._require_init("buffers")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {torch.typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError(f"cannot assign '{torch.typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if not persistent and name not in self._non_persistent:
            self._non_persistent.append(name)

    def register_parameter(self, name, param):
        self._require_init("parameters")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{torch.typename(param)}' object to parameter "
                            f"'{name}' (torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{torch.typename(module)} is not a Module subclass")
        self._modules[name] = module

    def register_module(self, name, module):
        self.add_module(name, module)

    def get_submodule(self, target):
        module = self
        if target == "":
            return module
        for item in target.split("."):
            if item not in module._modules:
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = module._modules[item]
        return module

    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        if memo is None:
            memo = []
        result = []
        if remove_duplicate:
            for seen in memo:
                if seen is self:
                    return result
            memo.append(self)
        result.append((prefix, self))
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            result.extend(module.named_modules(memo, sub, remove_duplicate))
        return result

    def modules(self):
        return iter([m for _, m in self.named_modules()])

    def named_children(self):
        return iter([(n, m) for n, m in self._modules.items() if m is not None])

    def children(self):
        return iter([m for _, m in self.named_children()])

    def _named_members(self, table, prefix, recurse, remove_duplicate=True):
        result = []
        seen = []
        modules = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for name, value in getattr(module, table).items():
                if value is None:
                    continue
                if remove_duplicate:
                    if any(v is value for v in seen):
                        continue
                    seen.append(value)
                result.append((module_prefix + ("." if module_prefix else "") + name, value))
        return result

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        return iter(self._named_members("_parameters", prefix, recurse, remove_duplicate))

    def parameters(self, recurse=True):
        return iter([p for _, p in self._named_members("_parameters", "", recurse)])

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        return iter(self._named_members("_buffers", prefix, recurse, remove_duplicate))

    def buffers(self, recurse=True):
        return iter([b for _, b in self._named_members("_buffers", "", recurse)])

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        object.__setattr__(self, "training", mode)
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                if p.grad.grad_fn is not None:
                    p.grad.detach_()
                else:
                    p.grad.requires_grad_(False)
                p.grad.zero_()

    def apply(self, fn):
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def _apply(self, convert):
        for module in self.children():
            module._apply(convert)
        for name, param in self._parameters.items():
            if param is not None:
                param.data = convert(param.data)
        for name, buf in self._buffers.items():
            if buf is not None:
                self._buffers[name] = convert(buf)
        return self

    def to(self, *args, **kwargs):
        # Module.to(device=None, dtype=None, non_blocking=False) or to(tensor): the dtype
        # applies to floating-point tensors only, the device to all.
        device = kwargs.get("device", None)
        dtype = kwargs.get("dtype", None)
        for a in args:
            if isinstance(a, torch.dtype):
                dtype = a
            elif isinstance(a, torch.Tensor):
                device = a.device
                dtype = a.dtype
            elif a is not None and not isinstance(a, bool):
                device = a
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but got "
                            f"desired dtype={dtype}")

        def convert(t):
            if t.is_floating_point():
                return t.to(device=device, dtype=dtype)
            return t.to(device=device)
        return self._apply(convert)

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self):
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self):
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda())

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        if destination is None:
            destination = OrderedDict()
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination, prefix + name + ".", keep_vars)
        return destination

    def load_state_dict(self, state_dict, strict=True, assign=False):
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        if strict and (missing or unexpected):
            parts = []
            if missing:
                parts.append("Missing key(s) in state_dict: " +
                             ", ".join(['"' + k + '"' for k in missing]) + ". ")
            if unexpected:
                parts.append("Unexpected key(s) in state_dict: " +
                             ", ".join(['"' + k + '"' for k in unexpected]) + ". ")
            raise RuntimeError("Error(s) in loading state_dict for " + self._get_name() +
                               ":\n\t" + "\n\t".join(parts))
        with torch.no_grad():
            for key, value in state_dict.items():
                if key in own:
                    if own[key].shape != value.shape:
                        raise RuntimeError(
                            f"Error(s) in loading state_dict for {self._get_name()}:\n\t"
                            f"size mismatch for {key}: copying a param with shape {value.shape} "
                            f"from checkpoint, the shape in current model is {own[key].shape}.")
                    own[key].copy_(value)
        return _IncompatibleKeys(missing, unexpected)

    def extra_repr(self):
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = []
        for key, module in self._modules.items():
            child_lines.append("(" + key + "): " + _addindent(repr(module), 2))
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    def __dir__(self):
        return sorted(list(self.__dict__.keys()) + list(self._parameters.keys()) +
                      list(self._buffers.keys()) + list(self._modules.keys()))
