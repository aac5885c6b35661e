# Training through graph breaks (issue 16): a training step compiled as one function, whose
# model has a graph break inside its forward (torch._dynamo.graph_break()) and whose step has
# one between the forward and the loss (print) and at loss.backward(). The pieces compile as
# separate graphs (counted by a counting backend, then under inductor), backward flows through
# all of them, and AdamW's steps give the losses, gradients and weights that eager training
# gives. zero_grad and the optimizer step stay outside the compiled function. Data and weights
# come from arange, not the random generator.
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
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                p.copy_(det(*p.shape, scale=0.5, shift=0.3 * i))

    def forward(self, x):
        h = torch.tanh(self.fc1(x))
        # the break splits the forward (and so its backward) into two graphs
        torch._dynamo.graph_break()
        return self.fc2(h) * 2.0


graphs = 0


def counting(gm, example_inputs):
    global graphs
    graphs += 1
    return gm.forward


x = det(6, 4, shift=0.1)
y = torch.tensor([0, 1, 2, 1, 0, 2])


def train(backend, steps=4):
    global graphs
    torch._dynamo.reset()
    graphs = 0
    model = Net()
    opt = torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.1)

    def step(x, y):
        out = model(x)
        print("  logits", tuple(out.shape))
        loss = F.cross_entropy(out, y)
        loss.backward()
        return loss

    compiled = step if backend is None else torch.compile(step, backend=backend)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = compiled(x, y)
        losses.append(round(loss.item(), 5))
        grads = [p.grad for p in model.parameters()]
        opt.step()
    # the loss comes out of the last graph: the compiled backward's node under inductor
    print("loss grad_fn:", loss.grad_fn.name())
    return model, losses, grads


print("eager:")
eager_model, eager_losses, eager_grads = train(None)
for backend in (counting, "inductor"):
    name = "counting" if backend is counting else backend
    print(name + ":")
    model, losses, grads = train(backend)
    if backend is counting:
        print("graphs:", graphs)
    print("losses:", losses)
    print("same losses as eager:", losses == eager_losses)
    print("grad shapes:", [tuple(g.shape) for g in grads])
    print("fc1.weight.grad[0]:", [round(v, 5) for v in grads[0][0].tolist()])
    print("fc2.bias.grad:", [round(v, 5) for v in grads[3].tolist()])
    print("grads match eager:", all(torch.allclose(a, b, rtol=1e-4, atol=1e-6) for a, b in zip(grads, eager_grads)))
    print("weights match eager:", all(torch.allclose(a, b, rtol=1e-4, atol=1e-6) for a, b in zip(model.parameters(), eager_model.parameters())))
    print("checksums:", [round(p.sum().item(), 4) for p in model.parameters()])
