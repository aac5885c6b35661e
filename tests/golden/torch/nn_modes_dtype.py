# train()/eval(), requires_grad_, .to(dtype) / .double() / .half() on modules.
import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5), nn.Sequential(nn.ReLU()))
print(m.training, m[1].training, m[2][0].training)
r = m.eval()
print(r is m, m.training, m[1].training, m[2][0].training)
m.train()
print(m[1].training)
m.train(False)
print(m[1].training)
try:
    m.train("yes")
except ValueError as e:
    print(type(e).__name__, e)
m.to(torch.float64)
print(m[0].weight.dtype, m[0].bias.dtype, type(m[0].weight).__name__)
m.float()
print(m[0].weight.dtype)
m.half()
print(m[0].weight.dtype, m(torch.ones(2, dtype=torch.float16)).dtype)
m.to("cpu", torch.bfloat16)
print(m[0].weight.dtype)
m.to(dtype=torch.float32)
m.requires_grad_(False)
print([p.requires_grad for p in m.parameters()])


class B(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("idx", torch.arange(3))
        self.register_buffer("f", torch.ones(1))


b = B().to(torch.float64)
print(b.idx.dtype, b.f.dtype)
try:
    b.to(torch.int64)
except TypeError as e:
    print(type(e).__name__, e)
print(b.double().f.dtype, b.to(torch.ones(1, dtype=torch.float16)).f.dtype)
