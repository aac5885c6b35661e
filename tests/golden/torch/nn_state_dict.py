# state_dict (an OrderedDict of detached tensors) and load_state_dict.
import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 2), nn.LayerNorm(2))
with torch.no_grad():
    m[0].weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    m[0].bias.zero_()
sd = m.state_dict()
print(type(sd).__name__, list(sd.keys()))
print(sd)
print(sd["0.weight"].requires_grad, m.state_dict(keep_vars=True)["0.weight"].requires_grad)
m2 = nn.Sequential(nn.Linear(2, 2), nn.LayerNorm(2))
r = m2.load_state_dict(sd)
print(r, torch.equal(m2[0].weight, m[0].weight))
try:
    m2.load_state_dict({"0.weight": torch.zeros(2, 2)})
except RuntimeError as e:
    print(type(e).__name__, e)
bad = m.state_dict()
bad["0.bias"] = torch.zeros(3)
try:
    m2.load_state_dict(bad)
except RuntimeError as e:
    print(type(e).__name__, e)
print(m2.load_state_dict({"0.weight": torch.ones(2, 2)}, strict=False))
print(m2[0].weight)


class WithBuffers(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("kept", torch.ones(1))
        self.register_buffer("dropped", torch.zeros(1), persistent=False)


print(WithBuffers().state_dict())
