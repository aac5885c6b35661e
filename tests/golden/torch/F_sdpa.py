# F.scaled_dot_product_attention: plain, causal, boolean and additive masks, scale, GQA.
import torch
import torch.nn.functional as F

q = torch.arange(24.0).reshape(1, 2, 3, 4) / 24
k = torch.arange(24.0).flip(0).reshape(1, 2, 3, 4) / 24
v = torch.arange(24.0).reshape(1, 2, 3, 4) / 10
print(F.scaled_dot_product_attention(q, k, v))
print(F.scaled_dot_product_attention(q, k, v, is_causal=True))
mask = torch.tensor([[True, False, True], [True, True, False], [False, True, True]])
print(F.scaled_dot_product_attention(q, k, v, attn_mask=mask))
print(F.scaled_dot_product_attention(q, k, v, attn_mask=torch.zeros(3, 3) - torch.eye(3), scale=0.5))
print(F.scaled_dot_product_attention(q[0], k[0], v[0]).shape, F.scaled_dot_product_attention(q, k[:, :, :2], v[:, :, :2]).shape)
kq = torch.arange(48.0).reshape(1, 4, 3, 4) / 48
print(F.scaled_dot_product_attention(kq, k[:, :1].expand(1, 2, 3, 4).contiguous(), v, enable_gqa=True).shape)
print(F.scaled_dot_product_attention(q, k, v, dropout_p=0.0).sum())
print(F.scaled_dot_product_attention(q.requires_grad_(), k, v).sum())
try:
    F.scaled_dot_product_attention(q, k[..., :3], v)
except RuntimeError as e:
    print(type(e).__name__, e)
