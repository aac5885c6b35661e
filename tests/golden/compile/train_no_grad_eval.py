# Train, then evaluate, through one compiled model (issue 16): a model with BatchNorm1d and
# Dropout is trained a few steps with SGD (momentum), then evaluated under model.eval() and
# torch.no_grad(). Dynamo guards the module's training flag and grad mode, so evaluation compiles
# new graphs (under no_grad, then with grad on) and going back to training reuses the first; BatchNorm's running statistics are
# updated by the compiled training graph (a buffer mutation) and read by the evaluation graph, and
# no evaluation call touches them or the gradients. Dropout's p is 0 in training (its mask would
# depend on the random generator); it is set to 0.5 for evaluation, where dropout must be the
# identity. Data and weights come from arange, not the random generator.
import torch
import torch.nn as nn
import torch.nn.functional as F


def det(*sizes, scale=1.0, shift=0.0):
    n = 1
    for s in sizes:
        n *= s
    return ((torch.arange(n, dtype=torch.float32) * 0.7303 + shift) % 2.0 - 1.0).reshape(sizes) * scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(5, 16)
        self.bn = nn.BatchNorm1d(16)
        self.drop = nn.Dropout(0.0)
        self.fc2 = nn.Linear(16, 3)
        with torch.no_grad():
            for i, p in enumerate([self.fc1.weight, self.fc1.bias, self.fc2.weight, self.fc2.bias]):
                p.copy_(det(*p.shape, scale=0.6, shift=0.3 * i))

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.bn(self.fc1(x)))))


compiles = []


def counting(gm, example_inputs):
    compiles.append(len(compiles))
    return gm.forward


x = det(12, 5, scale=2.0, shift=0.4)
y = torch.arange(12) % 3
x_test = det(4, 5, scale=1.5, shift=1.1)


def rounded(t, digits=4):
    return [round(v, digits) for v in t.flatten().tolist()]


def run(backend):
    torch._dynamo.reset()
    compiles.clear()
    model = Net()
    net = model if backend is None else torch.compile(model, backend=backend)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = []
    for _ in range(5):
        opt.zero_grad()
        loss = F.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        losses.append(round(loss.item(), 4))
    print("  losses:", losses)
    print("  running_mean[:4]:", rounded(model.bn.running_mean[:4]), "batches:", model.bn.num_batches_tracked.item())
    grads = [p.grad.clone() for p in model.parameters()]
    stats = (model.bn.running_mean.clone(), model.bn.running_var.clone())
    model.eval()
    model.drop.p = 0.5
    with torch.no_grad():
        logits = net(x_test)
        again = net(x_test)
        accuracy = (net(x).argmax(dim=1) == y).float().mean().item()
    print("  eval logits:", rounded(logits), "requires_grad:", logits.requires_grad)
    print("  eval deterministic:", torch.equal(logits, again), "accuracy:", round(accuracy, 4))
    print("  eval left stats and grads alone:", torch.equal(stats[0], model.bn.running_mean)
          and torch.equal(stats[1], model.bn.running_var)
          and all(torch.equal(g, p.grad) for g, p in zip(grads, model.parameters())))
    # eval mode with grad on: gradients flow through the running statistics' normalisation
    out = net(x_test).sum()
    print("  eval with grad:", round(out.item(), 4), out.requires_grad)
    model.train()
    model.drop.p = 0.0
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    print("  back to training:", round(loss.item(), 4), "batches:", model.bn.num_batches_tracked.item())
    if backend is counting:
        print("  graphs:", len(compiles))
    return losses


for backend in (None, counting, "inductor"):
    print("eager:" if backend is None else "counting:" if backend is counting else backend + ":")
    run(backend)
