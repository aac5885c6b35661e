# A small MLP classifier trained with SGD (momentum) on fixed synthetic data: 256 points in the
# plane, labelled by which side of a line they fall on. Data and initial weights come from fixed
# formulas, not the random generator: Kiln's seeded generator gives its own stream, not
# PyTorch's values, and the printed losses must be the same in both. The model is compiled with the default
# (inductor) backend, so each step runs the compiled forward and backward graphs (AOT autograd)
# and the optimizer step eagerly; the loss falls and the model ends up classifying every point.
# As a benchmark workload it gives one training step per call in each mode:
#
#     kiln run resources/workloads/train_mlp.py
#     kiln bench resources/workloads/train_mlp.py
import torch
import torch.nn as nn
import torch.nn.functional as F

POINTS, HIDDEN, STEPS, REPORT_EVERY = 256, 32, 40, 5


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, HIDDEN)
        self.out = nn.Linear(HIDDEN, 2)
        # A scattered but fixed initialisation at nn.Linear's scale (1/sqrt(fan_in)).
        with torch.no_grad():
            for i, p in enumerate(self.parameters()):
                fan_in = p.shape[-1] if p.dim() == 2 else p.shape[0]
                n = p.numel()
                pattern = (torch.arange(n, dtype=torch.float32) * 0.7303 + 0.37 * i) % 2.0 - 1.0
                p.copy_(pattern.reshape(p.shape) / fan_in ** 0.5)

    def forward(self, x):
        return self.out(F.relu(self.fc2(F.relu(self.fc1(x)))))


def make_data():
    # Points spread over [-2, 2)^2 by a low-discrepancy (R2) sequence; the label is a fixed rule
    # of the point. A margin around the line keeps the classes cleanly separable, so a few
    # dozen steps reach 100%.
    i = torch.arange(POINTS, dtype=torch.float32).unsqueeze(1)
    x = (i * torch.tensor([0.7548777, 0.5698403]) + 0.5) % 1.0 * 4.0 - 2.0
    side = x[:, 0] + 0.5 * x[:, 1]
    x = x + 0.2 * torch.sign(side).unsqueeze(1) * torch.tensor([1.0, 0.5])
    return x, (side > 0).long()


def build(mode):
    """A fresh model, compiled for `mode` unless it is "eager", and its training step."""
    model = MLP()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    net = model if mode == "eager" else torch.compile(model, mode=None if mode == "default" else mode)

    def step(inputs, targets):
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(net(inputs), targets)
        loss.backward()
        optimizer.step()
        return loss

    return step, net


def make_step(mode):
    return build(mode)[0]


def make_inputs():
    # kiln bench seeds the generator (torch.manual_seed(0)) before calling this.
    return make_data()


if __name__ == "__main__":
    torch.manual_seed(0)
    inputs, targets = make_data()
    step, net = build("default")
    for i in range(STEPS):
        loss = step(inputs, targets)
        # Printed rounded: compiled and eager kernels may sum in different orders.
        if i % REPORT_EVERY == 0 or i == STEPS - 1:
            print(f"step {i}: loss {round(loss.item(), 4)}")
    with torch.no_grad():
        accuracy = (net(inputs).argmax(dim=1) == targets).float().mean().item()
    print(f"accuracy: {accuracy:.1%}")
