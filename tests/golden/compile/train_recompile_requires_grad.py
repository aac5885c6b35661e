# Guards on requires_grad (issue 16): Dynamo guards each tensor input's requires_grad, so calling
# a compiled function with an input that starts (or stops) requiring grad compiles a new graph,
# and a later call like an earlier one reuses that graph. Under grad mode off the same inputs
# compile again (grad mode is guarded too). Gradients through each graph are eager's. A counting
# backend counts the graphs; the same calls under inductor give the same values and gradients.
import torch


def det(*sizes, scale=1.0, shift=0.0):
    n = 1
    for s in sizes:
        n *= s
    return ((torch.arange(n, dtype=torch.float32) * 0.7303 + shift) % 2.0 - 1.0).reshape(sizes) * scale


compiles = []


def counting(gm, example_inputs):
    compiles.append([t.requires_grad for t in example_inputs if isinstance(t, torch.Tensor)])
    return gm.forward


def f(x, w):
    return (torch.tanh(x @ w) * x.sum(dim=1, keepdim=True)).pow(2).mean()


def rounded(t):
    return None if t is None else [round(v, 5) for v in t.flatten().tolist()]


def run(backend):
    torch._dynamo.reset()
    compiles.clear()
    cf = torch.compile(f, backend=backend)
    x0 = det(3, 4, shift=0.2)
    w0 = det(4, 2, scale=0.5, shift=0.7)

    def call(label, x_grad, w_grad):
        x = x0.clone().requires_grad_(x_grad)
        w = w0.clone().requires_grad_(w_grad)
        out = cf(x, w)
        if out.requires_grad:
            out.backward()
        grad_fn = out.grad_fn.name() if out.grad_fn is not None else None
        counted = f", graphs {len(compiles)}" if backend is counting else ""
        print(f"{label}: out {round(out.item(), 5)}, requires_grad {out.requires_grad}, grad_fn {grad_fn}{counted}")
        return x.grad, w.grad

    call("no grad", False, False)
    gx, _ = call("x requires grad", True, False)
    print("  x.grad:", rounded(gx))
    call("no grad again", False, False)
    gx2, gw = call("both require grad", True, True)
    print("  x.grad same:", torch.allclose(gx, gx2), "w.grad:", rounded(gw))
    _, gw2 = call("w only", False, True)
    print("  w.grad same:", torch.allclose(gw, gw2))
    call("x requires grad, second time", True, False)
    with torch.no_grad():
        call("both, under no_grad", True, True)
    call("both, grad mode back on", True, True)
    return compiles


print("counting backend:")
print("graphs' inputs require grad:", run(counting))
print("inductor:")
run("inductor")
