# What a compiled entry guards among the values it read through nn.Modules, as PyTorch 2.3 does
# with guard_nn_modules=False: a module reached from a local or a global is guarded by identity
# and `training`; its attributes, submodules and their attributes are not, so changing one
# after compiling reuses the cached graph (a stale result, printed here next to eager's). A
# module the compiled frame stores into becomes "unspecialized" (its class too): reads through it
# are guarded, but an attribute it only stores is not. guard_nn_modules=True guards every read.
# Recorded with torch==2.3.1: PyTorch 2.11 inlines modules (inline_inbuilt_nn_modules) and
# guards the attributes it reads, so it recompiles at each change below.
import torch
import torch.nn as nn

graphs = []
def counting(gm, example_inputs):
    graphs.append(len(gm.graph.nodes))
    return gm.forward

class Sub(nn.Module):
    def __init__(self):
        super().__init__()
        self.k = 2
    def forward(self, x):
        return x * self.k

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 3
        self.scale = 2.0
        self.flag = True
        self.sizes = [1, 2]
        self.sub = Sub()
        self.act = nn.ReLU()
    def forward(self, x):
        y = x.view(-1, self.n) * self.scale + self.sizes[1]
        if self.flag:
            y = y + 1
        return self.act(self.sub(y))

x = torch.arange(6.0) - 3
m = Net()
mc = torch.compile(m, backend=counting)
def show(label, compiled, eager):
    print(label, compiled(x).flatten().tolist(), eager(x).flatten().tolist(), len(graphs))
show("start", mc, m)
m.n = 2; show("n", mc, m)
m.scale = 3.0; show("scale", mc, m)
m.sizes[1] = 0; show("sizes[1]", mc, m)
m.flag = False; show("flag", mc, m)
m.sub.k = 5; show("sub.k", mc, m)
m.act = nn.Tanh(); show("act", mc, m)
m.sub.train(False); show("sub.eval()", mc, m)
m.eval(); show("eval()", mc, m)

# A module reached through a global, and one passed as an argument: the same rules.
g = Net()
def call_global(x):
    return g(x)
fg = torch.compile(call_global, backend=counting)
show("global", fg, g)
g.scale = 10.0; show("global scale", fg, g)
def call_arg(mod, x):
    return mod(x)
fa = torch.compile(call_arg, backend=counting)
a, b = Net(), Net()
print("arg", fa(a, x).tolist(), len(graphs))
a.scale = 7.0
print("arg scale", fa(a, x).tolist(), a(x).tolist(), len(graphs))
print("other instance", fa(b, x).tolist(), len(graphs))

# A module whose forward stores into itself: unspecialized, reads through it are guarded.
class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.seen = False
        self.scale = 2.0
        self.sub = Sub()
    def forward(self, x):
        self.seen = True
        return self.sub(x * self.scale)
c = Counter()
cc = torch.compile(c, backend=counting)
show("counter", cc, c)
show("counter again", cc, c)
c.scale = 3.0; show("counter scale", cc, c)
c.sub.k = 5; show("counter sub.k", cc, c)
c.sub.train(False); show("counter sub.eval()", cc, c)

# guard_nn_modules=True guards what is read through modules.
torch._dynamo.config.guard_nn_modules = True
h = Net()
hc = torch.compile(h, backend=counting)
show("guarded", hc, h)
h.scale = 4.0; show("guarded scale", hc, h)
h.sub.k = 3; show("guarded sub.k", hc, h)
