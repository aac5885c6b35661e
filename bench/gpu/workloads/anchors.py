# The GPU workloads of ../shared/reference/performance-anchors.md, as a Kiln script (and a
# module real torch imports, see workloads()): each one compiled in default mode, the first call
# timed (compile included), then CALLS timed calls.
# Kernel times per call come from the trace (CUPTI records in kernel_launches), read by
# bench/gpu/side_by_side.py; eager kernel time is measured here with CUDA events.
import math
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

CALLS = 20
torch.manual_seed(0)


def eager_us(fn, inputs):
    for _ in range(2):
        fn(*inputs)
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(CALLS):
        fn(*inputs)
    stop.record()
    torch.cuda.synchronize()
    return start.elapsed_time(stop) * 1000.0 / CALLS


def compiled_times(compiled, inputs):
    """The first call's seconds (tracing and compiling included), then after three warm-up
    calls the wall time per call over CALLS calls, in microseconds."""
    t0 = time.perf_counter()
    compiled(*inputs)
    torch.cuda.synchronize()
    first = time.perf_counter() - t0
    for _ in range(3):
        compiled(*inputs)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(CALLS):
        compiled(*inputs)
    torch.cuda.synchronize()
    return first, (time.perf_counter() - t0) * 1e6 / CALLS


def warm_up():
    """performance-anchors.md's method: compile time is the first call after a warm-up compile
    of an unrelated function in the same process (CUDA context, compiler start-up and the
    backend's own first-use costs land here, not in the first workload)."""
    x = torch.randn(1000, device="cuda")
    torch.compile(lambda t: torch.relu(t) * 3.0 - 1.0)(x)
    torch.cuda.synchronize()


def measure(name, fn, inputs):
    first, wall = compiled_times(torch.compile(fn), inputs)
    print(f"KILN name={name} first_call_s={first:.3f} wall_us={wall:.1f} "
          f"eager_us={eager_us(fn, inputs):.1f}", flush=True)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4096, 16384)
        self.fc2 = nn.Linear(16384, 4096)

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x)))


class Block(nn.Module):
    def __init__(self, c, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(c)
        self.qkv = nn.Linear(c, 3 * c)
        self.proj = nn.Linear(c, c)
        self.ln2 = nn.LayerNorm(c)
        self.fc1 = nn.Linear(c, 4 * c)
        self.fc2 = nn.Linear(4 * c, c)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(c, dim=2)
        q = q.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        y = self.attention(q, k, v)
        x = x + self.proj(y.transpose(1, 2).contiguous().view(b, t, c))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))

    def attention(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


class ManualAttentionBlock(Block):
    """The block of performance-anchors.md: attention written out, with a causal mask buffer
    and a masked softmax (as nanoGPT's CausalSelfAttention without flash)."""

    def __init__(self, c, heads, t):
        super().__init__(c, heads)
        self.register_buffer("causal", torch.tril(torch.ones(t, t)).view(1, 1, t, t))

    def attention(self, q, k, v):
        t = q.size(-2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.causal[:, :, :t, :t] == 0, float("-inf"))
        return F.softmax(att, dim=-1) @ v


def workloads():
    """(name, function, inputs) of each workload; bench/gpu/side_by_side.py imports these for
    the torch side, so both systems run the same code on the same shapes."""
    w = torch.randn(4096, device="cuda")
    bias = torch.randn(4096, device="cuda")
    return [
        ("sin+cos 2^26", lambda x: torch.sin(x) + torch.cos(x),
         [torch.randn(1 << 26, device="cuda")]),
        ("gelu(layer_norm) 16384x4096", lambda x: F.gelu(F.layer_norm(x, (4096,), w, bias)),
         [torch.randn(16384, 4096, device="cuda")]),
        ("softmax 16384x4096", lambda x: torch.softmax(x, -1),
         [torch.randn(16384, 4096, device="cuda")]),
        ("bf16 MLP 8192x4096", MLP().cuda().to(torch.bfloat16),
         [torch.randn(8192, 4096, device="cuda").to(torch.bfloat16)]),
        ("bf16 transformer block", ManualAttentionBlock(768, 12, 1024).cuda().to(torch.bfloat16),
         [torch.randn(8, 1024, 768, device="cuda").to(torch.bfloat16)]),
        ("bf16 block, sdpa attention", Block(768, 12).cuda().to(torch.bfloat16),
         [torch.randn(8, 1024, 768, device="cuda").to(torch.bfloat16)]),
    ]


if __name__ == "__main__":
    warm_up()
    for name, fn, inputs in workloads():
        measure(name, fn, inputs)
