# nn.MultiheadAttention with deterministic weights: parameter layout (packed in_proj_weight and
# separate q/k/v_proj_weight when kdim/vdim differ), reprs, batch_first, need_weights and
# average_attn_weights, bool/float attn_mask, key_padding_mask, unbatched input; errors.
import torch
import torch.nn as nn


def r(t):
    return torch.round(t.detach() * 1e4) / 1e4 + 0.0


def fill(m):
    with torch.no_grad():
        for i, p in enumerate(m.parameters()):
            n = p.numel()
            p.copy_(((torch.arange(n, dtype=torch.float32) * (5 + 2 * i)) % 13 / 13 - 0.5).reshape(p.shape))


def data(*shape, k=7):
    n = torch.Size(shape).numel()
    return ((torch.arange(n, dtype=torch.float32) * k) % 11 / 5 - 1).reshape(shape)


mha = nn.MultiheadAttention(4, 2)
fill(mha)
print(mha, mha.head_dim, mha.batch_first, mha._qkv_same_embed_dim)
print([(n, tuple(p.shape)) for n, p in mha.named_parameters()], mha.q_proj_weight, mha.bias_k)
q, kv = data(3, 2, 4), data(5, 2, 4, k=3)
out, w = mha(q, kv, kv)
print(r(out), r(w), out.shape, w.shape)
out2, w2 = mha(q, kv, kv, average_attn_weights=False)
print(r(w2), w2.shape, torch.allclose(w2.mean(1), w), torch.allclose(out2, out))
out3, w3 = mha(q, kv, kv, need_weights=False)
print(w3, torch.allclose(out3, out, atol=1e-6))
causal = torch.triu(torch.ones(3, 3, dtype=torch.bool), diagonal=1)
sa, sw = mha(q, q, q, attn_mask=causal)
print(r(sa), r(sw))
fmask = torch.tensor([[0.0, -1.0, -2.0], [0.5, 0.0, -1.0], [0.0, 0.0, 0.0]])
print(r(mha(q, q, q, attn_mask=fmask)[1]))
inf_mask = torch.zeros(3, 3).masked_fill(causal, float("-inf"))
print(torch.allclose(mha(q, q, q, attn_mask=inf_mask)[0], sa), torch.allclose(mha(q, q, q, attn_mask=causal, need_weights=False)[0], sa, atol=1e-6))
kpm = torch.tensor([[False, False, False, True, True], [False, True, False, False, False]])
po, pw = mha(q, kv, kv, key_padding_mask=kpm)
print(r(po), r(pw))
m3 = torch.zeros(4, 3, 5)
m3[1, :, 0] = float("-inf")
print(r(mha(q, kv, kv, attn_mask=m3, key_padding_mask=kpm.float() * -1e9, average_attn_weights=False)[1][0]))
u_out, u_w = mha(q[:, 0], kv[:, 0], kv[:, 0])
print(r(u_out), u_w.shape, torch.allclose(u_out, out[:, 0], atol=1e-6))
bf = nn.MultiheadAttention(4, 2, batch_first=True)
bf.load_state_dict(mha.state_dict())
bo, bw = bf(q.transpose(0, 1), kv.transpose(0, 1), kv.transpose(0, 1))
print(bf.batch_first, bo.shape, torch.allclose(bo.transpose(0, 1), out, atol=1e-6), torch.allclose(bw, w))
x = q.transpose(0, 1).contiguous()
bf.eval()
with torch.no_grad():
    fo, fw = bf(x, x, x)
    print(r(fo), r(fw), bf(x, x, x, need_weights=False)[1])
kv_m = nn.MultiheadAttention(4, 2, kdim=3, vdim=5, bias=False)
fill(kv_m)
print(kv_m, kv_m._qkv_same_embed_dim, kv_m.in_proj_weight, kv_m.in_proj_bias)
print([(n, tuple(p.shape)) for n, p in kv_m.named_parameters()])
ko, kw = kv_m(q, data(5, 2, 3), data(5, 2, 5, k=4))
print(r(ko), r(kw))
print(nn.MultiheadAttention(6, 3, dropout=0.1, add_bias_kv=True, vdim=2), [n for n, _ in nn.MultiheadAttention(6, 3, add_bias_kv=True).named_parameters()])
for bad in [lambda: nn.MultiheadAttention(5, 2),
            lambda: mha(q, kv, kv, attn_mask=torch.zeros(3, 3)),
            lambda: mha(q, kv, kv, key_padding_mask=torch.zeros(2, 5, dtype=torch.int64))]:
    try:
        bad()
    except (AssertionError, RuntimeError) as e:
        print(type(e).__name__, e)
