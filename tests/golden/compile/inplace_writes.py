# Graphs that write tensors in place: batch norm in training mode (running statistics and
# num_batches_tracked updated by the compiled graph, gradients through the batch statistics),
# in-place ops on graph inputs (the caller sees the write and gets the same tensor back, the
# version counter moves once per call), inputs that alias each other, a view taken before the
# write, and a hand-written SGD step under no_grad reading p.grad. Compiled results equal eager.
import torch
import torch.nn as nn
import torch.nn.functional as F

def init(model):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (1 + 0.1 * i))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3, padding=1)
        self.bn = nn.BatchNorm2d(6)
        self.fc = nn.Linear(6, 4)
        self.bn1 = nn.BatchNorm1d(4, momentum=0.3)

    def forward(self, x):
        x = F.relu(self.bn(self.conv(x)))
        return self.bn1(self.fc(x.mean(dim=(2, 3))))


x = torch.sin(torch.arange(2 * 3 * 5 * 5, dtype=torch.float32).reshape(2, 3, 5, 5) * 0.7)
x = torch.cat([x, x.flip(0) * 0.5])
y = torch.tensor([0, 1, 2, 3])
model, twin = Net(), Net()
init(model)
init(twin)
compiled = torch.compile(model)
opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
twin_opt = torch.optim.SGD(twin.parameters(), lr=0.2, momentum=0.9)
for step in range(5):
    loss = F.cross_entropy(compiled(x), y)
    loss.backward()
    opt.step()
    opt.zero_grad()
    twin_loss = F.cross_entropy(twin(x), y)
    twin_loss.backward()
    twin_opt.step()
    twin_opt.zero_grad()
    print(step, round(loss.item(), 4), abs(loss.item() - twin_loss.item()) < 1e-5)
print("running mean", [round(v, 4) for v in model.bn.running_mean.tolist()])
print("running var", [round(v, 4) for v in model.bn.running_var.tolist()])
print("bn1 running var", [round(v, 4) for v in model.bn1.running_var.tolist()])
print("batches", model.bn.num_batches_tracked.item(), model.bn1.num_batches_tracked.item())
same = all(torch.allclose(a, b, atol=1e-5) for a, b in zip(model.state_dict().values(),
                                                           twin.state_dict().values()))
print("state equals eager", same)
model.eval()
twin.eval()
with torch.no_grad():
    out = compiled(x)
    print("eval", [round(v, 4) for v in out[0].tolist()], torch.allclose(out, twin(x), atol=1e-5))

# F.batch_norm in training mode with running statistics the caller owns.
rm, rv = torch.zeros(3), torch.ones(3)


def normalise(t):
    return F.batch_norm(t, rm, rv, training=True, momentum=0.2) * 2


xb = torch.linspace(-2, 3, 12).reshape(4, 3) ** 2
print(torch.compile(normalise)(xb)[1])
print(rm, rv)

# In-place writes into inputs.
def scale_into(x, buf):
    buf.mul_(2).add_(x)
    return buf


buf = torch.ones(3)
f = torch.compile(scale_into)
for i in range(3):
    before = buf._version
    out = f(torch.arange(3.0), buf)
    print(out is buf, buf, buf._version - before)


def alias(a, b):
    a.add_(1)
    return a + b


z = torch.zeros(3)
print(torch.compile(alias)(z, z), z)
w = torch.zeros(2, 3)
print(torch.compile(alias)(w[0], w), w)


def view_first(a):
    v = a.view(-1)
    a.add_(1)
    return v * 2


q = torch.zeros(2, 2)
print(torch.compile(view_first)(q), q)

# A hand-written SGD step: parameters written under no_grad from their .grad.
p = torch.ones(4, requires_grad=True)
p.grad = torch.linspace(0, 1, 4)


@torch.compile
def sgd(p, lr):
    with torch.no_grad():
        p.add_(p.grad, alpha=-lr)


for lr in (0.1, 0.1, 0.5):
    sgd(p, lr)
print(p, p.requires_grad, p.grad_fn, p.is_leaf)
