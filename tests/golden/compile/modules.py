# torch.compile on nn.Modules: OptimizedModule, parameters, training flag.
import torch
import torch.nn as nn

torch.manual_seed(0)
calls = []


def backend(gm, example_inputs):
    calls.append(len([n for n in gm.graph.nodes if n.op == "placeholder"]))
    return gm.forward


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


model = MLP()
compiled = torch.compile(model, backend=backend)
print(type(compiled).__name__, compiled._orig_mod is model)
x = torch.randn(2, 8)
print(torch.allclose(compiled(x), model(x)))
print(torch.allclose(compiled(x), model(x)))
print("compiles:", len(calls))
print([name for name, _ in compiled.named_parameters()])
with torch.no_grad():
    model.fc1.weight.add_(1.0)
print("sees updated weights:", torch.allclose(compiled(x), model(x)))
seq = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
cseq = torch.compile(seq, backend="eager")
print(torch.allclose(cseq(x), seq(x)))
