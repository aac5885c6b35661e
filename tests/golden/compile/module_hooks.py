# Forward hooks and pre-hooks (nn.Module.register_forward_hook / register_forward_pre_hook):
# eager semantics (argument and result replacement, with_kwargs, prepend, always_call, handles
# as context managers) and under torch.compile, where a submodule's hooks are traced into the
# caller's graph, and a hook on the compiled module itself runs around the compiled forward as a
# frame of its own.
# Recorded with torch==2.3.1: with guard_nn_modules=False, 2.3 guards nothing read through the
# compiled module (a submodule's hook dicts included), so removing a hook after compiling keeps
# running the cached graph with the hook in it ("removed False [5]"), and the outer hook then
# wraps that graph's result. PyTorch 2.11 guards the hook dicts and recompiles (True [5, 4],
# True [5, 4, 3], and "outer hook" prints the unhooked values).
# Weights are set from arange, so every printed value is independent of the random generator.
import torch
import torch.nn as nn

graphs = []
def counting(gm, example_inputs):
    graphs.append(len([n for n in gm.graph.nodes
                       if n.op in ("call_function", "call_method", "call_module")]))
    return gm.forward

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 2)
        with torch.no_grad():
            self.a.weight.copy_(torch.arange(16.0).reshape(4, 4) / 16 - 0.5)
            self.a.bias.fill_(0.25)
            self.b.weight.copy_(torch.arange(8.0).reshape(2, 4) / 8 - 0.5)
            self.b.bias.fill_(-0.125)
    def forward(self, x):
        return self.b(torch.relu(self.a(x)))

def show(label, t):
    print(label, [round(v, 4) for v in t.flatten().tolist()])

m = Net()
x = torch.arange(12.0).reshape(3, 4) / 6 - 1
show("plain", m(x))

def double_input(mod, args):
    return (args[0] * 2,)
def add_one(mod, args, out):
    return out + 1
h1 = m.a.register_forward_pre_hook(double_input)
h2 = m.b.register_forward_hook(add_one)
print(type(h1).__name__, h2.id - h1.id)
eager = m(x)
show("hooked", eager)

cm = torch.compile(m, backend=counting)
print("compiled", torch.allclose(cm(x), eager), graphs)
print("cached", torch.allclose(cm(x), eager), graphs)
h2.remove()
print("removed", torch.allclose(cm(x), m(x)), graphs)
h1.remove()
print("both removed", torch.allclose(cm(x), m(x)), graphs)

# A hook on the compiled module itself.
h3 = m.register_forward_hook(lambda mod, args, out: out - 100)
show("outer hook", cm(x))
h3.remove()

# with_kwargs pre-hooks return (args, kwargs); anything else is a RuntimeError.
def shift(mod, args, kwargs):
    return (args[0] + 1,), kwargs
with m.a.register_forward_pre_hook(shift, with_kwargs=True):
    print("kwargs hook", torch.allclose(m(x), m.b(torch.relu(m.a.forward(x + 1)))))
print("after with", len(m.a._forward_pre_hooks), len(m.a._forward_pre_hooks_with_kwargs))
h4 = m.a.register_forward_pre_hook(lambda mod, args, kwargs: 5, with_kwargs=True)
try:
    m(x)
except RuntimeError as e:
    print("RuntimeError:", e)
h4.remove()

# A forward hook returning None keeps the result; prepend puts a hook first.
order = []
ha = m.a.register_forward_hook(lambda mod, args, out: order.append("first"))
hb = m.a.register_forward_hook(lambda mod, args, out: order.append("prepended"), prepend=True)
m(x)
print(order)
ha.remove()
hb.remove()

# always_call hooks run when forward raises; the others do not.
class Boom(nn.Module):
    def forward(self, x):
        raise ValueError("boom")
boom = Boom()
boom.register_forward_hook(lambda mod, args, out: print("always_call hook, out =", out),
                           always_call=True)
boom.register_forward_hook(lambda mod, args, out: print("ordinary hook"))
try:
    boom(x)
except ValueError as e:
    print("ValueError:", e)

# A hook that sees the module and its output shape, compiled inside a Sequential.
seq = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
with torch.no_grad():
    for p in seq.parameters():
        p.fill_(0.5)
shapes = {}
def record_shape(mod, args, out):
    return out * 2
seq[1].register_forward_hook(record_shape)
cs = torch.compile(seq, backend=counting)
print("sequential", torch.allclose(cs(x), seq(x)), graphs[-1:])

