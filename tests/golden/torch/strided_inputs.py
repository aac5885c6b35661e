# Ops on non-contiguous inputs (transposed, sliced, expanded, negative-offset views).
import torch

base = torch.arange(24.0).reshape(4, 6)
t = base.t()
s = base[1:, ::2]
e = torch.tensor([1.0, 2.0, 3.0]).expand(4, 3)
for v in [t, s, e]:
    print(v.is_contiguous(), v.stride())
    print(v + 1, v * v, v.sum(0), v.mean(1), v.exp().sum(), v.max(0).values, v.argmax(1))
    print(v.softmax(-1).sum(-1), v.clone().is_contiguous(), v.contiguous().stride(), v.flatten()[:5])
    print(v @ torch.ones(v.shape[1]), v.t() @ v, torch.cat([v, v]).shape, v[v > 10][:3])
print(t.reshape(-1)[:6], s.reshape(3, 3), e.reshape(12))
u = base.clone()
u.t()[1:3, :2] = -1.0
print(u)
k = base[:, 1]
k += 100
print(base[:, :3])
h = base.half()[::2, 1::2]
print(h, h.sum(), h.t() @ h)
i = torch.arange(12).reshape(3, 4).t()
print(i.sum(0), i * 2, i.flip(0), i.cumsum(1))
