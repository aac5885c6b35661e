# torch.no_grad as context manager and decorator; enable_grad, set_grad_enabled, inference_mode.
import torch

w = torch.ones(2, requires_grad=True)
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled(), (w * 2).requires_grad, w * 2)
    with torch.enable_grad():
        print(torch.is_grad_enabled(), (w * 2).grad_fn.name())
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled(), (w * 2).requires_grad)


@torch.no_grad()
def f(x):
    return x * 3, torch.is_grad_enabled()


print(f(w), torch.is_grad_enabled())


@torch.no_grad()
def g(x, scale=1.0):
    """Documented."""
    return x * scale


print(g(w, scale=2.0))
with torch.set_grad_enabled(False):
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
torch.set_grad_enabled(False)
print(torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.inference_mode():
    print(torch.is_grad_enabled(), (w + 1).requires_grad)
with torch.inference_mode(False):
    print(torch.is_grad_enabled())
try:
    with torch.no_grad():
        raise ValueError("inside")
except ValueError as e:
    print(type(e).__name__, e, torch.is_grad_enabled())


class M:
    @torch.no_grad()
    def run(self, x):
        return x + 1


print(M().run(w))
