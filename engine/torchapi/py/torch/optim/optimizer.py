# torch.optim.Optimizer for Kiln workloads: parameter groups, per-parameter state, zero_grad and
# state_dict/load_state_dict with PyTorch's structure and output (docs/optim.md). Written in the
# workload language so that stepping into optimizer.step() shows the update as Python.
import copy
import functools
from collections import defaultdict

# warnings is imported where a warning is given, not here: it imports sys, which needs the
# script's __main__, and this module is imported while torch itself is, before __main__ may
# exist (an embedder importing torch first).
import torch


class _RequiredParameter:
    """Singleton class representing a required parameter for an Optimizer."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _use_grad_for_differentiable(func):
    # A step runs with grad mode off (the updates are not part of any graph) unless the
    # optimizer was made differentiable; the caller's mode is restored even on an error.
    def _use_grad(self, *args, **kwargs):
        # What the schedulers read to warn about a scheduler step before the first
        # optimizer step (PyTorch's scheduler patches optimizer.step to set it).
        self._opt_called = True
        prev_grad = torch.is_grad_enabled()
        try:
            torch.set_grad_enabled(self.defaults["differentiable"])
            ret = func(self, *args, **kwargs)
        finally:
            torch.set_grad_enabled(prev_grad)
        return ret

    functools.update_wrapper(_use_grad, func)
    _use_grad._kiln_notes_call = True
    return _use_grad


def _get_value(x):
    # A step count kept as a tensor is read as a Python number, as PyTorch does outside
    # compilation: the bias corrections are then computed in double precision.
    return x.item() if isinstance(x, torch.Tensor) else x


def _refuse_unsupported(name, fused=None, capturable=False, differentiable=False):
    # Kiln runs PyTorch's single-tensor (foreach=False) update; these modes change the
    # arithmetic or need devices Kiln's optimizers do not drive, so they fail loudly.
    for flag, value in (("fused", fused), ("capturable", capturable),
                        ("differentiable", differentiable)):
        if value:
            raise NotImplementedError(
                f"torch.optim.{name}({flag}=True) is not supported by Kiln: its optimizers run "
                "PyTorch's single-tensor update (see docs/optim.md)")


def _cast_state(param, value, key=None):
    # load_state_dict's copy of one state value: floating tensors take the parameter's dtype
    # (except 'step', which stays as saved), containers are rebuilt around their items.
    if isinstance(value, torch.Tensor):
        if key == "step":
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)
    if isinstance(value, dict):
        return {k: _cast_state(param, v, key=k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast_state(param, v) for v in value)
    return value


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, torch.Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got " + torch.typename(params))
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, state):
        # Kiln's __dict__ is a snapshot, so the attributes are set one by one.
        for key, value in state.items():
            setattr(self, key, value)
        self.defaults.setdefault("differentiable", False)

    def __repr__(self):
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    def state_dict(self):
        # Parameters become their position across all groups, in group order.
        param_mappings = {}
        start_index = 0

        def pack_group(group):
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start_index):
                if id(p) not in param_mappings:
                    param_mappings[id(p)] = i
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(param_mappings[id(k)] if isinstance(k, torch.Tensor) else k): v
                        for k, v in self.state.items()}
        return {"state": packed_state, "param_groups": param_groups}

    def load_state_dict(self, state_dict):
        state_dict = state_dict.copy()
        groups = self.param_groups
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for g, s in zip(groups, saved_groups):
            if len(g["params"]) != len(s["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't "
                                 "match the size of optimizer's group")
        id_map = {}
        for g, s in zip(groups, saved_groups):
            for saved_id, p in zip(s["params"], g["params"]):
                id_map[saved_id] = p
        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast_state(param, v)
            else:
                state[k] = v
        param_groups = []
        for g, new_group in zip(groups, saved_groups):
            new_group["params"] = g["params"]
            if "param_names" in g and "param_names" not in new_group:
                new_group["param_names"] = g["param_names"]
            param_groups.append(new_group)
        self.__setstate__({"state": state, "param_groups": param_groups})

    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                    continue
                if p.grad.grad_fn is not None:
                    p.grad.detach_()
                else:
                    p.grad.requires_grad_(False)
                p.grad.zero_()

    def step(self, closure=None):
        raise NotImplementedError

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, torch.Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            param_group["params"] = list(params)
        self._split_named_params(param_group)
        for param in param_group["params"]:
            if not isinstance(param, torch.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " +
                                torch.typename(param))
            if not self.defaults.get("differentiable", None) and not param.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)
        self._check_disjoint(param_group)
        self.param_groups.append(param_group)

    @staticmethod
    def _split_named_params(param_group):
        # named_parameters() gives (name, tensor) pairs: the names go to 'param_names'.
        tensors, names = [], []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if len(names) != 0:
            if len(names) != len(tensors):
                raise ValueError("all optimizer params should be with/without names. Some param "
                                 "names are missing")
            param_group["param_names"] = names

    def _check_disjoint(self, param_group):
        params = param_group["params"]
        if len(params) != len(set(params)):
            import warnings
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        param_set = set()
        for group in self.param_groups:
            param_set.update(set(group["params"]))
            if ("param_names" in param_group) != ("param_names" in group):
                current = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {current} to the optimizer")
        if not param_set.isdisjoint(set(params)):
            raise ValueError("some parameters appear in more than one parameter group")
