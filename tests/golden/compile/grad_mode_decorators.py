# Recorded with torch==2.3.1: grad-mode decorators and the grad-mode nodes of captured graphs.
# `@torch.no_grad()` returns a functools.wraps wrapper (the function keeps its name, docstring
# and __wrapped__; a generator function's steps each run in the mode), a compiled frame inlines
# it with `_set_grad_enabled` nodes around its ops, and a frame entered under no_grad records no
# mode change, also when an int input becomes dynamic.
import inspect

import torch


@torch.no_grad()
def generate(x):
    """Greedy decode."""
    return x * 2, torch.is_grad_enabled()


@torch.inference_mode()
def sample(x):
    return x


@torch.enable_grad()
def with_grad(x):
    return torch.is_grad_enabled()


@torch.no_grad()
def steps(n):
    for _ in range(n):
        received = yield torch.is_grad_enabled()
        if received is not None:
            yield received


print(generate.__name__, generate.__qualname__, generate.__doc__, type(generate).__name__)
print(sample.__name__, hasattr(generate, "__wrapped__"), generate.__wrapped__.__name__)
print(inspect.isgeneratorfunction(steps), inspect.isgeneratorfunction(generate))
print(list(steps(2)), torch.is_grad_enabled(), steps.__name__)
gen = steps(3)
print(next(gen), gen.send("sent"), next(gen))
with torch.no_grad():
    print(with_grad(1), torch.is_grad_enabled())

graphs = []


def counting(gm, example_inputs):
    graphs.append([getattr(n.target, "__name__", str(n.target)) for n in gm.graph.nodes])
    return gm.forward


def f(x):
    y = x + 1
    z, mode = generate(y)
    return z.sin(), mode


w = torch.ones(3, requires_grad=True)
out, mode = torch.compile(f, backend=counting)(w)
print(mode, out.requires_grad, torch.allclose(out, f(w)[0]))


def scale(t, k: int):
    return t * k


compiled = torch.compile(scale, backend=counting)
with torch.no_grad():
    compiled(torch.arange(3), 3)
    compiled(torch.arange(3), 4)
compiled(torch.arange(3), 5)
for g in graphs:
    print(g)
