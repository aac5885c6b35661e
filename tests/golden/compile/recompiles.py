# Guards and recompiles: shapes, dtypes, constants, automatic dynamic shapes.
import torch

compiles = []


def backend(gm, example_inputs):
    compiles.append([tuple(t.shape) for t in example_inputs if isinstance(t, torch.Tensor)])
    return gm.forward


def f(x, n):
    return x * n + 1


cf = torch.compile(f, backend=backend)
cf(torch.ones(4, 3), 2)
cf(torch.ones(4, 3), 2)
print("same call:", len(compiles))
cf(torch.ones(4, 3, dtype=torch.float64), 2)
print("dtype change:", len(compiles))
cf(torch.ones(8, 3), 2)
print("size change:", len(compiles))
cf(torch.ones(16, 3), 2)
cf(torch.ones(32, 3), 2)
print("larger sizes reuse the dynamic entry:", len(compiles))
cf(torch.ones(1, 3), 2)
print("size 1 specialises:", len(compiles))
print(compiles)


def g(x, flag):
    if flag:
        return x + 1
    return x - 1


cg = torch.compile(g, backend=backend)
before = len(compiles)
print(cg(torch.zeros(2), True), cg(torch.zeros(2), False), cg(torch.zeros(2), True))
print("bool guard:", len(compiles) - before)

static = []


def static_backend(gm, example_inputs):
    static.append(1)
    return gm.forward


cs = torch.compile(lambda x: x.sum(0), backend=static_backend, dynamic=False)
for size in (4, 8, 16, 8):
    cs(torch.ones(size, 2))
print("dynamic=False:", len(static))

dyn = []


def dyn_backend(gm, example_inputs):
    dyn.append(1)
    return gm.forward


cd = torch.compile(lambda x: x.sum(0), backend=dyn_backend, dynamic=True)
for size in (4, 8, 16):
    cd(torch.ones(size, 2))
print("dynamic=True:", len(dyn))

marked = []


def marked_backend(gm, example_inputs):
    marked.append(1)
    return gm.forward


cm = torch.compile(lambda x: x * 2, backend=marked_backend)
t = torch.ones(6, 2)
torch._dynamo.mark_dynamic(t, 0)
cm(t)
cm(torch.ones(7, 2))
print("mark_dynamic:", len(marked))
torch._dynamo.reset()
cm(torch.ones(6, 2))
print("after reset:", len(marked))
