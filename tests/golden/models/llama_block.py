# Llama-style decoder (reference-code shaped): a @dataclass ModelArgs, RMSNorm (computed in
# float32 and cast back with type_as), rotary embeddings in the real formulation (cos/sin
# tables precomputed with torch.outer and registered as non-persistent buffers; both the
# rotate_half and the interleaved-pairs variants, checked against each other), grouped-query
# attention (n_kv_heads < n_heads; repeat_kv through expand/reshape, checked against
# repeat_interleave), a causal mask from torch.full(-inf).triu(1), SDPA as a cross-check,
# a SwiGLU MLP (w2(silu(w1 x) * w3 x)) with Llama's hidden-size rounding, and a KV cache
# (buffers written in place with slice assignment) for prefill + one-token decode steps.
# Weights are filled from sin(arange) so printed values do not depend on the RNG. The model
# runs eagerly, under backend="eager", a counting backend and inductor.
# Recorded with PyTorch 2.3.1 (the specification). One line differs under PyTorch 2.11:
# "compiled kv cache: True graphs: 3" (2.3: 4). The decode loop passes start_pos as a Python int: 2.11 remembers the
# earlier start_pos=0 and makes it a SymInt at 0->5; 2.3 specialises 0 as a constant without
# recording it, so 5 compiles static and 6 makes it a SymInt (one more graph).
import math
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class ModelArgs:
    dim: int = 32
    n_layers: int = 2
    n_heads: int = 4
    n_kv_heads: Optional[int] = 2
    vocab_size: int = 64
    multiple_of: int = 16
    ffn_dim_multiplier: Optional[float] = None
    norm_eps: float = 1e-5
    rope_theta: float = 10000.0
    max_batch_size: int = 2
    max_seq_len: int = 16


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x):
        output = self._norm(x.float()).type_as(x)
        return output * self.weight


def precompute_rope(dim: int, end: int, theta: float = 10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, dtype=torch.float32)
    freqs = torch.outer(t, freqs)  # (end, dim/2)
    return freqs.cos(), freqs.sin()


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rope_half(x, cos, sin):
    # x: (bs, seqlen, n_heads, head_dim); cos/sin: (seqlen, head_dim/2)
    cos = torch.cat((cos, cos), dim=-1)[None, :, None, :]
    sin = torch.cat((sin, sin), dim=-1)[None, :, None, :]
    return x * cos + rotate_half(x) * sin


def apply_rope_pairs(x, cos, sin):
    # Interleaved pairs (x0, x1), (x2, x3), ... rotated as complex numbers would be.
    xr = x.float().reshape(*x.shape[:-1], -1, 2)
    x0, x1 = xr.unbind(-1)
    cos = cos[None, :, None, :]
    sin = sin[None, :, None, :]
    out = torch.stack((x0 * cos - x1 * sin, x0 * sin + x1 * cos), dim=-1)
    return out.flatten(3).type_as(x)


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    bs, slen, n_kv_heads, head_dim = x.shape
    if n_rep == 1:
        return x
    return (
        x[:, :, :, None, :]
        .expand(bs, slen, n_kv_heads, n_rep, head_dim)
        .reshape(bs, slen, n_kv_heads * n_rep, head_dim)
    )


class Attention(nn.Module):
    def __init__(self, args: ModelArgs):
        super().__init__()
        self.n_kv_heads = args.n_heads if args.n_kv_heads is None else args.n_kv_heads
        self.n_heads = args.n_heads
        self.n_rep = self.n_heads // self.n_kv_heads
        self.head_dim = args.dim // args.n_heads
        self.wq = nn.Linear(args.dim, args.n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(args.dim, self.n_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(args.dim, self.n_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(args.n_heads * self.head_dim, args.dim, bias=False)
        cache_shape = (args.max_batch_size, args.max_seq_len, self.n_kv_heads, self.head_dim)
        self.register_buffer("cache_k", torch.zeros(cache_shape), persistent=False)
        self.register_buffer("cache_v", torch.zeros(cache_shape), persistent=False)

    def forward(self, x, start_pos: int, cos, sin, mask: Optional[torch.Tensor], use_cache: bool = False):
        bsz, seqlen, _ = x.shape
        xq, xk, xv = self.wq(x), self.wk(x), self.wv(x)
        xq = xq.view(bsz, seqlen, self.n_heads, self.head_dim)
        xk = xk.view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xv = xv.view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xq = apply_rope_half(xq, cos, sin)
        xk = apply_rope_half(xk, cos, sin)
        if use_cache:
            self.cache_k[:bsz, start_pos : start_pos + seqlen] = xk
            self.cache_v[:bsz, start_pos : start_pos + seqlen] = xv
            keys = self.cache_k[:bsz, : start_pos + seqlen]
            values = self.cache_v[:bsz, : start_pos + seqlen]
        else:
            keys, values = xk, xv
        keys = repeat_kv(keys, self.n_rep)
        values = repeat_kv(values, self.n_rep)
        xq = xq.transpose(1, 2)
        keys = keys.transpose(1, 2)
        values = values.transpose(1, 2)
        scores = torch.matmul(xq, keys.transpose(2, 3)) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores + mask
        scores = F.softmax(scores.float(), dim=-1).type_as(xq)
        output = torch.matmul(scores, values)
        output = output.transpose(1, 2).contiguous().view(bsz, seqlen, -1)
        return self.wo(output)


class FeedForward(nn.Module):
    def __init__(self, dim: int, hidden_dim: int, multiple_of: int, ffn_dim_multiplier: Optional[float]):
        super().__init__()
        hidden_dim = int(2 * hidden_dim / 3)
        if ffn_dim_multiplier is not None:
            hidden_dim = int(ffn_dim_multiplier * hidden_dim)
        hidden_dim = multiple_of * ((hidden_dim + multiple_of - 1) // multiple_of)
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class TransformerBlock(nn.Module):
    def __init__(self, layer_id: int, args: ModelArgs):
        super().__init__()
        self.layer_id = layer_id
        self.attention = Attention(args)
        self.feed_forward = FeedForward(args.dim, 4 * args.dim, args.multiple_of, args.ffn_dim_multiplier)
        self.attention_norm = RMSNorm(args.dim, eps=args.norm_eps)
        self.ffn_norm = RMSNorm(args.dim, eps=args.norm_eps)

    def forward(self, x, start_pos, cos, sin, mask, use_cache=False):
        h = x + self.attention(self.attention_norm(x), start_pos, cos, sin, mask, use_cache)
        return h + self.feed_forward(self.ffn_norm(h))


class Transformer(nn.Module):
    def __init__(self, params: ModelArgs):
        super().__init__()
        self.params = params
        self.tok_embeddings = nn.Embedding(params.vocab_size, params.dim)
        self.layers = nn.ModuleList([TransformerBlock(i, params) for i in range(params.n_layers)])
        self.norm = RMSNorm(params.dim, eps=params.norm_eps)
        self.output = nn.Linear(params.dim, params.vocab_size, bias=False)
        cos, sin = precompute_rope(params.dim // params.n_heads, params.max_seq_len * 2, params.rope_theta)
        self.register_buffer("rope_cos", cos, persistent=False)
        self.register_buffer("rope_sin", sin, persistent=False)
        with torch.no_grad():
            for i, (name, p) in enumerate(self.named_parameters()):
                vals = torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.61 + 0.3 * i) * 0.25
                if "norm" in name:
                    vals = 1.0 + 0.5 * vals
                p.copy_(vals.view(p.shape))

    def forward(self, tokens: torch.Tensor, start_pos: int = 0, use_cache: bool = False):
        _bsz, seqlen = tokens.shape
        h = self.tok_embeddings(tokens)
        cos = self.rope_cos[start_pos : start_pos + seqlen]
        sin = self.rope_sin[start_pos : start_pos + seqlen]
        mask = None
        if seqlen > 1:
            mask = torch.full((seqlen, seqlen), float("-inf"), device=tokens.device)
            mask = torch.triu(mask, diagonal=1)
            if use_cache:
                mask = torch.hstack([torch.zeros((seqlen, start_pos), device=tokens.device), mask]).type_as(h)
        for layer in self.layers:
            h = layer(h, start_pos, cos, sin, mask, use_cache)
        h = self.norm(h)
        return self.output(h).float()


args = ModelArgs()
print(args)
model = Transformer(args).eval()
n_params = sum(p.numel() for p in model.parameters())
print("params:", n_params, "buffers:", sorted(n for n, _ in model.named_buffers()))
print("state_dict keys:", len(model.state_dict()), "hidden:", model.layers[0].feed_forward.w1.out_features)

# Pieces checked on their own.
norm = model.layers[0].attention_norm
x = torch.linspace(-2.0, 2.0, 2 * 5 * 32).view(2, 5, 32)
y = norm(x)
print("rmsnorm:", tuple(y.shape), y.dtype, round(y.pow(2).mean().item(), 4), round(y[0, 0, :4].sum().item(), 4))
xh = x.to(torch.float64)
print("rmsnorm keeps dtype:", norm(xh).dtype)
cos, sin = model.rope_cos[:5], model.rope_sin[:5]
print("rope tables:", tuple(model.rope_cos.shape), round(cos.sum().item(), 4), round(sin.sum().item(), 4))
q = torch.sin(torch.arange(2 * 5 * 4 * 8, dtype=torch.float32)).view(2, 5, 4, 8)
rh = apply_rope_half(q, cos, sin)
print("rope keeps norm:", torch.allclose(rh.norm(dim=-1), q.norm(dim=-1), atol=1e-5))
# The pairs formulation equals rotate_half after permuting the head dim (evens, then odds).
perm = torch.cat((torch.arange(0, 8, 2), torch.arange(1, 8, 2)))
rp = apply_rope_pairs(q, cos, sin)
print("pairs == half (permuted):", torch.allclose(rp[..., perm], apply_rope_half(q[..., perm], cos, sin), atol=1e-6))
kv = torch.arange(2 * 5 * 2 * 8, dtype=torch.float32).view(2, 5, 2, 8)
print("repeat_kv:", tuple(repeat_kv(kv, 2).shape), torch.equal(repeat_kv(kv, 2), kv.repeat_interleave(2, dim=2)))

tokens = (torch.arange(2 * 8) * 11 % args.vocab_size).view(2, 8)
with torch.no_grad():
    logits = model(tokens)
print("logits:", tuple(logits.shape), logits.dtype)
print("logit sum:", round(logits.sum().item(), 3), "max:", round(logits.max().item(), 4))
print("argmax:", logits.argmax(-1).tolist())

# SDPA on the same projections (GQA expanded) matches the explicit attention.
with torch.no_grad():
    attn = model.layers[0].attention
    h0 = model.layers[0].attention_norm(model.tok_embeddings(tokens))
    c8, s8 = model.rope_cos[:8], model.rope_sin[:8]
    xq = apply_rope_half(attn.wq(h0).view(2, 8, 4, 8), c8, s8).transpose(1, 2)
    xk = repeat_kv(apply_rope_half(attn.wk(h0).view(2, 8, 2, 8), c8, s8), 2).transpose(1, 2)
    xv = repeat_kv(attn.wv(h0).view(2, 8, 2, 8), 2).transpose(1, 2)
    sdpa = F.scaled_dot_product_attention(xq, xk, xv, is_causal=True)
    sdpa = attn.wo(sdpa.transpose(1, 2).reshape(2, 8, -1))
    mask = torch.triu(torch.full((8, 8), float("-inf")), diagonal=1)
    ref = attn(h0, 0, c8, s8, mask)
print("sdpa matches:", torch.allclose(sdpa, ref, atol=1e-5))

# KV cache: prefill 5 tokens, then decode the remaining 3 one at a time.
with torch.no_grad():
    pre = model(tokens[:, :5], start_pos=0, use_cache=True)
    steps = [model(tokens[:, p : p + 1], start_pos=p, use_cache=True) for p in range(5, 8)]
cached = torch.cat([pre] + steps, dim=1)
print("kv cache matches full:", torch.allclose(cached, logits, atol=1e-5), tuple(cached.shape))
print("cache filled:", int((model.layers[1].attention.cache_k[:, :8].abs().sum(-1) > 0).sum().item()),
      int((model.layers[1].attention.cache_k[:, 8:].abs().sum(-1) > 0).sum().item()))

# torch.compile.
torch._dynamo.reset()
ce = torch.compile(model, backend="eager")
with torch.no_grad():
    print("eager backend:", torch.allclose(ce(tokens), logits, atol=1e-5))

torch._dynamo.reset()
graphs = []


def counting(gm, example_inputs):
    graphs.append(len([n for n in gm.graph.nodes if n.op == "call_function"]))
    return gm.forward


cc = torch.compile(model, backend=counting)
with torch.no_grad():
    out = cc(tokens)
    out = cc(tokens)
print("counting backend:", torch.allclose(out, logits, atol=1e-5), "graphs:", len(graphs))
with torch.no_grad():
    for layer in model.layers:
        layer.attention.cache_k.zero_()
        layer.attention.cache_v.zero_()
    pre = cc(tokens[:, :5], start_pos=0, use_cache=True)
    try:
        steps = [cc(tokens[:, p : p + 1], start_pos=p, use_cache=True) for p in range(5, 8)]
        cached_c = torch.cat([pre] + steps, dim=1)
        print("compiled kv cache:", torch.allclose(cached_c, logits, atol=1e-5), "graphs:", len(graphs))
    except RuntimeError as e:
        print("compiled kv cache: RuntimeError", "graphs:", len(graphs))

# A single block compiled with fullgraph=True.
torch._dynamo.reset()
block = model.layers[0]
cb = torch.compile(block, backend=counting, fullgraph=True)
hx = model.tok_embeddings(tokens).detach()
mask8 = torch.triu(torch.full((8, 8), float("-inf")), diagonal=1)
with torch.no_grad():
    print("block fullgraph:", torch.allclose(cb(hx, 0, c8, s8, mask8), block(hx, 0, c8, s8, mask8), atol=1e-5))

torch._dynamo.reset()
ci = torch.compile(model)
with torch.no_grad():
    print("inductor:", torch.allclose(ci(tokens), logits, atol=1e-4))
