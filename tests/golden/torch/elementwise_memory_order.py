# Elementwise results keep the memory order of their inputs (TensorIterator order), so strides,
# is_contiguous() and view() behave as in PyTorch.
import torch
t = torch.arange(24.).reshape(4,6).t()
c = torch.ones(6,4)
print((t+1).stride(), (1+t).stride(), (t+c).stride(), (c+t).stride(), t.exp().stride(), torch.where(t>0, t, 0.).stride())
p = torch.arange(24.).reshape(2,3,4).permute(2,0,1)
print(p.stride(), (p*2).stride(), (p + torch.ones(4,1,1)).stride(), p[:, :, :2].stride(), (p[:, :, :2]*2).stride())
b = torch.ones(4).expand(3,4)
print((b*2).stride(), (t + torch.ones(4)).stride(), t.clamp(0, 5).stride())
try:
    (t * 2).view(-1)
except RuntimeError as e:
    print(e)
print((t * 2).reshape(-1)[:5], (t*2).is_contiguous())
