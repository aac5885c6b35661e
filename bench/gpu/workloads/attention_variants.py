# Attention of the transformer block's shape (B 8, heads 12, T 1024, head size 64, bf16) in the
# forms a model writes it, compiled, timed with CUDA events per call (median of 30 calls after
# warm-up). Runs under Kiln (`kiln run`) and under real PyTorch (python3), so both print the
# same table on the same card:
#   sdpa causal / sdpa full:   F.scaled_dot_product_attention (flash attention)
#   written causal:            q @ k^T * scale, masked_fill(causal buffer == 0, -inf), softmax, @ v
#   written, nothing masked:   the same with a mask that keeps every score
#   written, as written:       pattern_matcher off: two products around a masked softmax
import math

import torch
import torch.nn.functional as F

B, H, T, D = 8, 12, 1024, 64
CALLS = 30
torch.manual_seed(0)
q, k, v = (torch.randn(B, H, T, D, device="cuda").to(torch.bfloat16) for _ in range(3))
causal = torch.tril(torch.ones(T, T, device="cuda")).view(1, 1, T, T)
everything = torch.ones(T, T, device="cuda").view(1, 1, T, T)


def written(mask):
    def attention(q, k, v):
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(mask == 0, float("-inf"))
        return F.softmax(att, dim=-1) @ v
    return attention


def median_us(fn):
    for _ in range(3):
        fn(q, k, v)
    torch.cuda.synchronize()
    times = []
    for _ in range(CALLS):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn(q, k, v)
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1000.0)
    times.sort()
    return times[len(times) // 2]


variants = [
    ("sdpa causal", torch.compile(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True))),
    ("sdpa full", torch.compile(lambda q, k, v: F.scaled_dot_product_attention(q, k, v))),
    ("written causal", torch.compile(written(causal))),
    ("written, nothing masked", torch.compile(written(everything))),
    ("written, as written", torch.compile(written(causal), options={"pattern_matcher": False})),
]
for name, fn in variants:
    print(f"ATTN {name:26s} {median_us(fn):8.1f} us", flush=True)
