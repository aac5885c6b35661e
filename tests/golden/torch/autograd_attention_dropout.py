# scaled_dot_product_attention with dropout in training (issue 16): the gradients of q, k and v
# through the dropout mask the forward drew, by float64 gradcheck with the seed fixed per call
# (so each call draws the same mask), plain, causal and with a boolean mask; the node name; the
# mask is fresh each call otherwise; dropout_p=0.0 and eval (no grad) are unchanged.
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck

torch.manual_seed(0)
q = torch.randn(2, 2, 5, 4, dtype=torch.float64, requires_grad=True)
k = torch.randn(2, 2, 6, 4, dtype=torch.float64, requires_grad=True)
v = torch.randn(2, 2, 6, 3, dtype=torch.float64, requires_grad=True)
mask = torch.tensor([[True, True, False, True, True, False]]).expand(5, 6)


def attention(**kw):
    def run(q, k, v):
        torch.manual_seed(1234)
        return F.scaled_dot_product_attention(q, k, v, dropout_p=0.4, **kw)
    return run


for name, kw in (("plain", {}), ("bool mask", {"attn_mask": mask}), ("scale", {"scale": 0.3})):
    print(name, gradcheck(attention(**kw), (q, k, v)))
qc, kc = q[:, :, :5], k[:, :, :5]
print("causal", gradcheck(attention(is_causal=True), (qc.detach().requires_grad_(),
                                                       kc.detach().requires_grad_(), v[:, :, :5].detach().requires_grad_())))
out = F.scaled_dot_product_attention(q, k, v, dropout_p=0.4)
print(out.grad_fn.name(), tuple(out.shape))
out.sum().backward()
print(q.grad.shape, k.grad.shape, v.grad.shape, bool(torch.isfinite(v.grad).all()))
a = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
b = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
print("fresh mask", not torch.equal(a, b))
print("p=0 deterministic", torch.equal(F.scaled_dot_product_attention(q, k, v, dropout_p=0.0),
                                       F.scaled_dot_product_attention(q, k, v)))
