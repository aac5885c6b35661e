# Kiln demo workload: a small network compiled with torch.compile, a compiled function with a
# graph break and a recompile, plus a little of everything the workload language offers.
# `kiln-studio resources/workloads/demo.py --run` runs it in Kiln Studio; `kiln run
# resources/workloads/demo.py` runs it in the terminal. Both record the run in
# resources/workloads/demo.kiln.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyNet(nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(d_hidden, d_out)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


model = TinyNet(16, 64, 4).eval()
print(model)
compiled_model = torch.compile(model)

x = torch.linspace(-1.0, 1.0, 8 * 16).reshape(8, 16)
with torch.no_grad():
    logits = compiled_model(x)
    probs = F.softmax(logits, dim=-1)

print("logits:", tuple(logits.shape), logits.dtype)
print("row sums:", [round(v, 4) for v in probs.sum(dim=-1).tolist()])
params = sum(p.numel() for p in model.parameters())
print(f"parameters: {params:,}")



@torch.compile
def standardize(t):
    centered = t - t.mean(dim=-1, keepdim=True)
    print("standardizing", tuple(t.shape))  # a graph break: print
    return centered / (centered.std(dim=-1, keepdim=True) + 1e-5)


for rows in (4, 8):  # a new shape: a recompile
    z = standardize(torch.randn(rows, 32))
print("standardized std:", round(z.std(dim=-1).mean().item(), 3))

a = torch.arange(12.0).reshape(3, 4)
print(a @ a.T)
print("softmax of a row:", F.softmax(a[0], dim=0))
print(f"pi to 5 places: {math.pi:.5f}")
