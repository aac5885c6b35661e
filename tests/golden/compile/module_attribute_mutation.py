# A module whose forward counts its calls (self.calls += 1) next to a print and a data-dependent
# branch: the store is replayed after the graph with a guard on the count, so the second call
# recompiles, as Dynamo does (4 graphs over two calls), and the count stays right.
import torch
import torch.nn as nn
cnt = 0
def counting(gm, example_inputs):
    global cnt
    cnt += 1
    return gm.forward

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.calls = 0
    def forward(self, x):
        self.calls += 1
        y = self.lin(x)
        print("calls", self.calls)
        if y.sum() > 0:
            return y * 2
        return y - 1

torch.manual_seed(0)
m = M()
cm = torch.compile(m, backend=counting)
x = torch.randn(2, 4)
for _ in range(2):
    out = cm(x)
print(m.calls, cnt, torch.allclose(out, m(x)))
