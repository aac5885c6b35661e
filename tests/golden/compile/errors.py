# torch.compile's errors: argument checks, fullgraph, backends.
import torch


def f(x):
    return torch.sin(x) + 1


def attempt(label, thunk):
    try:
        thunk()
        print(label, "ok")
    except Exception as e:
        # Only the type: the wording is PyTorch 2.3's in Kiln (tests/unit/capture checks it).
        # 2.3 raises UserError (an Unsupported) for data-dependent branches; newer Unsupported.
        unsupported = isinstance(e, torch._dynamo.exc.Unsupported)
        print(label, "Unsupported" if unsupported else type(e).__name__)


x = torch.ones(3)
attempt("mode and options", lambda: torch.compile(f, mode="max-autotune", options={"x": 1}))
attempt("unknown backend", lambda: torch.compile(f, backend="nope"))
attempt("disabled unknown backend", lambda: torch.compile(f, backend="nope", disable=True))


def broken(gm, example_inputs):
    raise ValueError("my backend is broken")


attempt("raising backend", lambda: torch.compile(f, backend=broken)(x))


def with_print(x):
    y = x + 1
    print("side effect")
    return y


attempt("fullgraph print", lambda: torch.compile(with_print, backend="eager", fullgraph=True)(x))


def with_branch(x):
    if x.sum() > 0:
        return x
    return -x


attempt("fullgraph branch", lambda: torch.compile(with_branch, backend="eager", fullgraph=True)(x))


def my_backend(gm, example_inputs):
    return gm.forward


torch._dynamo.register_backend(my_backend)
attempt("registered backend", lambda: torch.compile(f, backend="my_backend")(x))
attempt("duplicate", lambda: torch.compile(f, backend=torch._dynamo.register_backend(my_backend)))


@torch._dynamo.register_backend(name="named_backend")
def other(gm, example_inputs):
    return gm.forward


attempt("named backend", lambda: torch.compile(f, backend="named_backend")(x))
print("named_backend" in torch._dynamo.list_backends(), "my_backend" in torch._dynamo.list_backends())
print("eager" in torch._dynamo.list_backends(), "eager" in torch._dynamo.list_backends(None))
print("inductor" in torch._dynamo.list_backends())
torch._dynamo.config.suppress_errors = True
attempt("suppressed", lambda: torch.compile(f, backend=broken)(x))
print(torch.compile(f, backend=broken)(x))
attempt("not callable", lambda: torch.compile(5))
attempt("not callable, disabled", lambda: torch.compile(5, disable=True))
