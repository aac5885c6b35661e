# torch.compile applied to torch.nn's own layers: their forward is a frame Dynamo compiles
# (one graph each), and batch_norm's running statistics are updated once per call.
import torch
import torch.nn as nn

torch.manual_seed(0)
graphs = []


def counting(gm, example_inputs):
    graphs.append(len(example_inputs))
    return gm.forward


linear = nn.Linear(4, 3)
x = torch.randn(2, 4)
print(torch.allclose(torch.compile(linear, backend=counting)(x), linear(x)), len(graphs))
seq = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
print(torch.allclose(torch.compile(seq, backend=counting)(x), seq(x)), len(graphs))
print(torch.allclose(torch.compile(linear)(x), linear(x)))

bn = nn.BatchNorm2d(2)
batch = torch.arange(2 * 2 * 3 * 3, dtype=torch.float32).reshape(2, 2, 3, 3) / 10
compiled = torch.compile(bn)
for step in range(3):
    out = compiled(batch)
    print(step, [round(v, 4) for v in bn.running_mean.tolist()],
          [round(v, 4) for v in bn.running_var.tolist()], bn.num_batches_tracked.item())
bn.eval()
print(torch.allclose(compiled(batch), bn(batch)))
