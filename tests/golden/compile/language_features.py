# torch.compile over the Python a model's code uses: closures, defaults, *args/**kwargs,
# containers in and out, comprehensions, globals, nested compiled calls, no_grad, methods.
import torch
import torch.nn.functional as F

graphs = []


def backend(gm, example_inputs):
    graphs.append(len([n for n in gm.graph.nodes if n.op in ("call_function", "call_method")]))
    return gm.forward


def check(name, fn, *args, **kwargs):
    graphs.clear()
    compiled = torch.compile(fn, backend=backend)
    for _ in range(2):
        got, want = compiled(*args, **kwargs), fn(*args, **kwargs)
        print(name, same(got, want), graphs)


def same(a, b):
    if isinstance(a, (list, tuple)):
        return type(a) == type(b) and len(a) == len(b) and all(same(p, q) for p, q in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, torch.Tensor):
        return torch.allclose(a, b)
    return a == b


def make_scaler(k):
    def scale(x):
        return x * k
    return scale


scaler = make_scaler(3.0)
BIAS = torch.linspace(0, 1, 4)


def closures(x):
    return scaler(x) + BIAS


def defaults(x, alpha=0.5, *, beta=2.0):
    return torch.sin(x) * alpha + beta


def varargs(*xs, **weights):
    total = 0
    for i, x in enumerate(xs):
        total = total + x * weights.get(f"w{i}", 1.0)
    return total


def containers(pair, table):
    a, b = pair
    return {"sum": a + b, "scaled": [t * 2 for t in table["items"]], "n": len(table["items"])}


def comprehension(x):
    parts = [x[i] * i for i in range(x.shape[0])]
    return torch.stack(parts).sum(0)


@torch.compile(backend="eager")
def inner(x):
    return x.relu() + 1


def nested(x):
    return inner(x) * inner(-x)


def no_grad_block(x):
    with torch.no_grad():
        y = x * 2
    return y + 1


class Model:
    def __init__(self):
        self.w = torch.ones(4)

    def apply(self, x):
        return F.relu(x) * self.w


def returns_none(x):
    x.mul_(1)
    return None


def tuple_return(x):
    return x.max(dim=0)


torch.manual_seed(0)
x = torch.randn(4)
check("closures", closures, x)
check("defaults", defaults, x)
check("defaults given again", defaults, x, 0.5, beta=2.0)
check("varargs", varargs, x, x * 2, w1=3.0)
check("containers", containers, (x, x + 1), {"items": [x, x * 3]})
check("comprehension", comprehension, torch.randn(3, 4))
check("nested", nested, x)
check("no_grad", no_grad_block, x)
check("method", Model().apply, x)
check("returns None", returns_none, x.clone())
check("tuple return", tuple_return, torch.randn(3, 4))
