# torch.jit for Kiln workloads. TorchScript does not exist in Kiln: the decorators model code
# uses to tell TorchScript what to skip are identities, nothing is ever scripting or tracing,
# and scripting or tracing a module is an error that says so.
from typing import Final  # noqa: F401  (torch.jit.Final annotations)


def ignore(drop=False, **kwargs):
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    return fn


def export(fn):
    return fn


def is_scripting():
    return False


def is_tracing():
    return False


def annotate(the_type, the_value):
    return the_value


def script(obj, *args, **kwargs):
    raise NotImplementedError(
        "torch.jit.script is not supported by Kiln: TorchScript does not exist here; "
        "call the module or function directly, or use torch.compile")


def trace(func, *args, **kwargs):
    raise NotImplementedError(
        "torch.jit.trace is not supported by Kiln: TorchScript does not exist here; "
        "call the module or function directly, or use torch.compile")
