# torch.autograd for Kiln workloads: backward, grad and gradcheck over Kiln's eager autograd
# engine (engine/tensor/autograd.h). Derivatives exist for the ops docs/autograd.md lists;
# backward through any other op raises NotImplementedError naming its node.
import torch
from torch._kiln import _grad, _run_backward
from torch.autograd import graph
from torch.autograd import function
from torch.autograd.function import Function
from torch.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly

no_grad = torch.no_grad
enable_grad = torch.enable_grad
set_grad_enabled = torch.set_grad_enabled
inference_mode = torch.inference_mode


def _as_tuple(x):
    if x is None:
        return None
    if isinstance(x, torch.Tensor):
        return (x,)
    return tuple(x)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    _run_backward(_as_tuple(tensors), _as_tuple(grad_tensors), retain_graph, create_graph,
                  _as_tuple(inputs))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False,
         only_inputs=True, allow_unused=None, is_grads_batched=False, materialize_grads=False):
    if is_grads_batched:
        raise NotImplementedError("torch.autograd.grad(is_grads_batched=True) is not supported by Kiln")
    if allow_unused is None:
        allow_unused = materialize_grads
    inputs_tuple = _as_tuple(inputs)
    result = _grad(_as_tuple(outputs), inputs_tuple, _as_tuple(grad_outputs), retain_graph,
                   create_graph, allow_unused)
    if materialize_grads:
        result = tuple(torch.zeros_like(x) if g is None else g for g, x in zip(result, inputs_tuple))
    return result


class GradcheckError(RuntimeError):
    pass


def _flat(t):
    return t.reshape(-1)


def _numerical_column(func, inputs, i, k, eps):
    # d outputs / d inputs[i][k] by central differences, on copies (the inputs stay as given)
    # that require grad as the inputs do: the function runs with grad mode on, as PyTorch's
    # gradcheck runs it, so a function that differentiates its inputs (a double-backward check)
    # works.
    def shifted(delta):
        args = [x.detach().clone().requires_grad_(x.requires_grad)
                if isinstance(x, torch.Tensor) else x for x in inputs]
        with torch.no_grad():
            flat = _flat(args[i])
            flat[k] = flat[k] + delta
        return [o.detach() for o in _as_tuple(func(*args))]
    plus, minus = shifted(eps), shifted(-eps)
    return [(_flat(p) - _flat(m)) / (2 * eps) for p, m in zip(plus, minus)]


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_batched_forward_grad=False,
              check_forward_ad=False, check_backward_ad=True, fast_mode=False, masked=None):
    # The analytical Jacobian (one backward per output element) against central differences
    # (two forward calls per input element), as torch.autograd.gradcheck's slow mode.
    inputs = _as_tuple(inputs)
    outputs = _as_tuple(func(*inputs))
    wanted = [i for i, x in enumerate(inputs) if isinstance(x, torch.Tensor) and x.requires_grad]
    # numerical[i][k]: the numerical derivatives of every output by inputs[i][k].
    numerical = {i: [_numerical_column(func, inputs, i, k, eps) for k in range(inputs[i].numel())]
                 for i in wanted}
    for o_index, out in enumerate(outputs):
        flat_out = _flat(out)
        for j in range(flat_out.numel()):
            grads = grad(flat_out[j], [inputs[i] for i in wanted], retain_graph=True,
                         allow_unused=True)
            for g, i in zip(grads, wanted):
                analytical = torch.zeros(inputs[i].numel(), dtype=inputs[i].dtype) if g is None \
                    else _flat(g)
                for k in range(inputs[i].numel()):
                    a = analytical[k].item()
                    n = numerical[i][k][o_index][j].item()
                    if abs(a - n) > atol + rtol * abs(n):
                        if raise_exception:
                            raise GradcheckError(
                                f"Jacobian mismatch for output {o_index} with respect to input "
                                f"{i},\nnumerical:{n}\nanalytical:{a}\n")
                        return False
    return True
