# GPU numerics against the CPU (run by `kiln run --device cpu` on a GPU machine): every case
# computes the same function eagerly on the GPU, compiled on the GPU, and eagerly on the CPU,
# on the same random inputs, and prints one PASS/FAIL line with the relative error of each.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
failures = 0


def rel_err(got, want):
    got = got.cpu().float()
    want = want.float()
    if got.shape != want.shape:
        return float("inf")
    num = (got - want).abs().max().item()
    den = want.abs().max().item()
    return num / den if den > 0 else num


def check(name, fn, inputs, tol=1e-5):
    try:
        want = fn(*inputs)
    except Exception as e:  # not a GPU gap: the op is missing on the CPU too
        print(f"SKIP {name}: on the CPU: {type(e).__name__}: {e}")
        return
    report(name, fn, [t.cuda() for t in inputs], want, tol)


def report(name, fn, gpu_inputs, want, tol, err=rel_err):
    """fn eagerly and compiled on the GPU against `want`: one PASS/FAIL line."""
    global failures
    try:
        eager = err(fn(*gpu_inputs), want)
        compiled = err(torch.compile(fn)(*gpu_inputs), want)
    except Exception as e:
        failures += 1
        print(f"FAIL {name}: {type(e).__name__}: {e}")
        return
    ok = eager <= tol and compiled <= tol
    if not ok:
        failures += 1
    print(f"{'PASS' if ok else 'FAIL'} {name}: eager {eager:.2e} compiled {compiled:.2e}")


x = torch.randn(1000, 512)
y = torch.randn(1000, 512)
w = torch.randn(512)
b = torch.randn(512)
check("sin+cos", lambda a: torch.sin(a) + torch.cos(a), [torch.randn(1 << 20)])
check("add mul scalar", lambda a, c: a * 2.5 + c - 1, [x, y])
check("exp log abs", lambda a: torch.log(torch.exp(a).abs() + 1), [x])
check("relu tanh sigmoid", lambda a: torch.relu(a) + torch.tanh(a) * torch.sigmoid(a), [x])
check("broadcast bias", lambda a, c: a + c, [x, w])
check("where compare", lambda a, c: torch.where(a > c, a, c), [x, y])
check("softmax", lambda a: torch.softmax(a, -1), [x])
check("log_softmax", lambda a: F.log_softmax(a, dim=-1), [x])
check("layer_norm", lambda a, g, h: F.layer_norm(a, (512,), g, h), [x, w, b], 1e-4)
check("gelu(layer_norm)", lambda a, g, h: F.gelu(F.layer_norm(a, (512,), g, h)), [x, w, b], 1e-4)
check("sum dim", lambda a: a.sum(dim=1), [x], 1e-5)
check("mean", lambda a: a.mean(), [x], 1e-5)
check("amax", lambda a: a.amax(dim=0), [x])
check("var", lambda a: a.var(dim=1), [x], 1e-4)
check("argmax", lambda a: a.argmax(dim=1), [x])
check("transpose contiguous", lambda a: a.t().contiguous() * 2, [x])
check("mm", lambda a, c: a @ c.t(), [x, y], 1e-4)
check("linear", lambda a, m, c: F.linear(a, m, c), [x, torch.randn(256, 512), torch.randn(256)], 1e-4)
check("bmm", lambda a, c: torch.bmm(a, c), [torch.randn(4, 64, 32), torch.randn(4, 32, 48)], 1e-4)
check("cat", lambda a, c: torch.cat([a, c], dim=0) * 1.5, [x, y])
check("mlp gelu", lambda a, m1, c1, m2, c2: F.linear(F.gelu(F.linear(a, m1, c1)), m2, c2),
      [torch.randn(64, 128), torch.randn(256, 128), torch.randn(256), torch.randn(128, 256),
       torch.randn(128)], 1e-4)
check("bf16 add", lambda a, c: (a.bfloat16() + c.bfloat16()).float(), [x, y], 1e-2)
check("bf16 linear", lambda a, m: F.linear(a.bfloat16(), m.bfloat16()).float(),
      [x, torch.randn(256, 512)], 2e-2)
check("bf16 mlp gelu", lambda a, m1, c1, m2, c2: F.linear(
    F.gelu(F.linear(a.bfloat16(), m1.bfloat16(), c1.bfloat16())), m2.bfloat16(),
    c2.bfloat16()).float(),
      [torch.randn(64, 128), torch.randn(256, 128), torch.randn(256), torch.randn(128, 256),
       torch.randn(128)], 3e-2)
check("int add keeps dtype", lambda a: (a.long() + 3) * 2, [x])
check("int true division", lambda a: a.long() / 3, [x * 10])
check("sum of bool", lambda a: (a > 0).sum(dim=1), [x])

# The rest of the op table (DESIGN section 3), one case each.
p = torch.rand(1000, 512) + 0.1
check("pow sqrt rsqrt", lambda a: torch.pow(a, 1.5) + torch.sqrt(a) - torch.rsqrt(a), [p])
check("clamp maximum minimum", lambda a, c: torch.clamp(torch.maximum(a, c), -0.5, 0.5)
      + torch.minimum(a, c), [x, y])
check("abs neg log1p erf", lambda a: torch.log1p(a.abs()) - torch.erf(-a), [x])
check("silu gelu tanh", lambda a: F.silu(a) + F.gelu(a, approximate="tanh"), [x])
check("leaky_relu", lambda a: F.leaky_relu(a, 0.1), [x])
check("masked_fill", lambda a: a.masked_fill(a > 0.5, 0.0), [x])
check("mean keepdim std prod", lambda a: a.mean(1, keepdim=True) + a.std(1, keepdim=True)
      + (a[:, :8] * 0.5 + 1).prod(1, keepdim=True), [x], 1e-4)
check("norm", lambda a: a.norm(dim=1), [x], 1e-5)
check("layer_norm without affine", lambda a: F.layer_norm(a, (512,)), [x], 1e-4)
check("embedding", lambda w: F.embedding(torch.arange(0, 100, 3).cuda() if w.is_cuda
                                         else torch.arange(0, 100, 3), w), [torch.randn(100, 16)])
check("index_select gather", lambda a: torch.index_select(a, 0, torch.tensor([3, 1, 4]).to(a.device))
      .sum() + torch.gather(a, 1, torch.zeros(1000, 2, dtype=torch.long).to(a.device)).sum(),
      [x], 1e-4)
check("cat stack", lambda a, c: torch.stack([torch.cat([a, c], dim=1), torch.cat([c, a], dim=1)]),
      [x, y])
check("permute reshape expand", lambda a: a.view(10, 100, 512).permute(2, 0, 1).reshape(512, 1000)
      + a[:1].t().expand(512, 1000), [x])
check("squeeze unsqueeze", lambda a: a.unsqueeze(0).unsqueeze(2).squeeze(0) * 3, [x])
check("matmul 3-D @ 2-D", lambda a, m: torch.matmul(a.view(10, 100, 512), m),
      [x, torch.randn(512, 64)], 1e-4)
check("softmax dim 0", lambda a: torch.softmax(a, 0), [x])
check("bf16 log_softmax", lambda a: F.log_softmax(a.bfloat16(), -1).float(), [x], 2e-2)
check("cross_entropy", lambda a: F.cross_entropy(a, torch.arange(1000).to(a.device) % 512), [x], 1e-5)
check("mse_loss", lambda a, c: F.mse_loss(a, c), [x, y], 1e-5)
check("triu tril", lambda a: torch.triu(a[:, :512 - 12]) + torch.tril(a[:, 12:]), [x[:488]])
check("logical and compare", lambda a, c: ((a > 0) & (c < 0)) | (a == c), [x, y])
check("remainder (Python's sign rule)", lambda a, c: (a * 3) % (c + 2) + torch.remainder(a, -0.7), [x, y.abs()])
check("int64 % int64 tensor", lambda a, c: ((a * 100).long() % ((c.abs() * 10).long() + 1)).float(), [x, y])
check("norm p=1, inf, 3", lambda a: a.norm(p=1, dim=0) + a.norm(p=float("inf"), dim=0) + a.norm(p=3, dim=0), [x], 1e-5)
check("index_select dim 1", lambda a: a.index_select(1, torch.tensor([5, 0, 511]).to(a.device)) * 2, [x])
check("logical_or of floats", lambda a, c: torch.logical_or(a > 1, c).float(), [x, y])
check("float to int and back", lambda a: (a * 10).int().float() / 10, [x])
check("sdpa causal", lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
      [torch.randn(2, 4, 64, 32), torch.randn(2, 4, 64, 32), torch.randn(2, 4, 64, 32)], 1e-4)


def check_half(name, fn, inputs, dtype, tol):
    """fn on inputs rounded to `dtype`, eagerly and compiled on the GPU, against fn in float32
    on the CPU on the same rounded values (the half-precision CPU path rounds in other places)."""
    rounded = [t.to(dtype).float() for t in inputs]
    report(name, fn, [t.to(dtype).cuda() for t in rounded], fn(*rounded), tol)


def sdpa(causal):
    return lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=causal)


def heads_of(qkv, h):
    """q, k, v as views of one projection's rows, as a transformer block makes them."""
    b, t, c3 = qkv.shape
    c = c3 // 3
    q, k, v = qkv.split(c, dim=2)
    return [u.view(b, t, h, c // h).transpose(1, 2) for u in (q, k, v)]


def block_attention(qkv):
    return F.scaled_dot_product_attention(*heads_of(qkv, 4), is_causal=True)


bf16, fp16 = torch.bfloat16, torch.float16
check_half("flash bf16 causal", sdpa(True), [torch.randn(2, 3, 256, 64) for _ in range(3)], bf16, 2e-2)
check_half("flash bf16", sdpa(False), [torch.randn(2, 3, 256, 64) for _ in range(3)], bf16, 2e-2)
check_half("flash bf16 causal t=200", sdpa(True), [torch.randn(2, 2, 200, 64) for _ in range(3)],
           bf16, 2e-2)
check_half("flash bf16 tq 100 tk 300", sdpa(False),
           [torch.randn(2, 2, 100, 32), torch.randn(2, 2, 300, 32), torch.randn(2, 2, 300, 32)],
           bf16, 2e-2)
check_half("flash fp16 d=128 causal", sdpa(True), [torch.randn(1, 2, 192, 128) for _ in range(3)],
           fp16, 5e-3)
check_half("flash bf16 rank 3", sdpa(True), [torch.randn(4, 128, 16) for _ in range(3)], bf16, 2e-2)
check_half("flash bf16 strided heads", block_attention, [torch.randn(2, 160, 3 * 256)], bf16, 2e-2)
check_half("bf16 masked attention (decomposed)",
           lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m > 0),
           [torch.randn(2, 2, 64, 32) for _ in range(3)] + [torch.randn(64, 64)], bf16, 3e-2)


def manual_attention(qkv):
    """Attention written out over head views (cuBLASLt over two batch dims, no copies)."""
    q, k, v = heads_of(qkv, 4)
    t = q.size(-2)
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
    mask = torch.tril(torch.ones(t, t, device=qkv.device)).view(1, 1, t, t)
    att = att.masked_fill(mask == 0, float("-inf"))
    return (F.softmax(att, dim=-1) @ v).transpose(1, 2).reshape(qkv.shape[0], t, -1)


check("manual attention over head views", manual_attention, [torch.randn(2, 96, 3 * 128)], 1e-4)
check_half("bf16 manual attention over head views", manual_attention,
           [torch.randn(2, 160, 3 * 256)], bf16, 3e-2)


# Attention written out with a masked softmax becomes flash_attention with the mask as an input
# (compiler/match_attention.h): a mask per head with rows masked out entirely (NaN, as softmax
# over a row of -inf gives), and nanoGPT's causal buffer sliced to a shorter sequence.
def masked_written(q, k, v, m):
    att = (q @ k.transpose(-2, -1)) / 8.0
    att = att.masked_fill(m, float("-inf"))
    return F.softmax(att, dim=-1) @ v


def nan_aware_err(got, want):
    got, want = got.cpu().float(), want.float()
    if not torch.equal(got.isnan(), want.isnan()):
        return float("inf")
    return rel_err(got.masked_fill(got.isnan(), 0.0), want.masked_fill(want.isnan(), 0.0))


def check_nan_rows(name, fn, inputs, mask, dtype, tol):
    rounded = [t.to(dtype).float() for t in inputs]
    gpu = [t.to(dtype).cuda() for t in rounded] + [mask.cuda()]
    report(name, fn, gpu, fn(*rounded, mask), tol, nan_aware_err)


head_mask = torch.rand(1, 3, 200, 136) > 0.6
head_mask[:, :, 7, :] = True  # rows with every score masked out
head_mask[:, 1, :, 64:] = True  # whole key tiles masked out for one head
check_nan_rows("bf16 written attention, mask per head, empty rows", masked_written,
               [torch.randn(2, 3, 200, 64), torch.randn(2, 3, 136, 64), torch.randn(2, 3, 136, 64)],
               head_mask, bf16, 3e-2)


class CausalBuffer(nn.Module):
    def __init__(self, t):
        super().__init__()
        self.register_buffer("causal", torch.tril(torch.ones(t, t)).view(1, 1, t, t))

    def forward(self, q, k, v):
        t = q.size(-2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.causal[:, :, :t, :t] == 0, float("-inf"))
        return F.softmax(att, dim=-1) @ v


causal_module = CausalBuffer(512)
causal_gpu = CausalBuffer(512).cuda()
check_half("bf16 written causal attention, buffer sliced to t=300",
           lambda q, k, v: (causal_gpu if q.is_cuda else causal_module)(q, k, v),
           [torch.randn(2, 4, 300, 64) for _ in range(3)], bf16, 3e-2)
check("head views k^T @ q, 2 batches x 3 heads", lambda qkv: (lambda q, k, v: k.transpose(-2, -1) @ v)(
    *[u.view(2, 40, 3, 16).transpose(1, 2) for u in qkv.split(48, dim=2)]),
      [torch.randn(2, 40, 144)], 1e-4)
check("fp16 linear", lambda a, m: F.linear(a.half(), m.half()).float(),
      [x, torch.randn(256, 512) * 0.1], 2e-2)
torch.set_float32_matmul_precision("high")
check("tf32 mm", lambda a, c: a @ c.t(), [x, y], 5e-3)
torch.set_float32_matmul_precision("highest")

a = torch.randn(100, 100)
g = a.cuda()
g += 1.0
g.mul_(2.0)
err = rel_err(g, (a + 1.0) * 2.0)
if err > 1e-6:
    failures += 1
print(f"{'PASS' if err <= 1e-6 else 'FAIL'} in-place += and mul_: {err:.2e}")

# In-place ops on views (strided targets), zero_, fill_ and copy_ on the GPU.
a = torch.randn(64, 48)
g = a.cuda()
g[:, 8:16].mul_(2.0)
g.t()[3].add_(1.0)
g[5].zero_()
g[:, 40:].fill_(0.5)
h = torch.zeros(48, device="cuda")
h.copy_(g[7])
k = torch.zeros(48, dtype=torch.float64, device="cuda")
k.copy_(g[9])
ref = a.clone()
ref[:, 8:16] *= 2.0
ref.t()[3] += 1.0
ref[5] = 0
ref[:, 40:] = 0.5
err = max(rel_err(g, ref), rel_err(h, ref[7]), rel_err(k.float(), ref[9]))
if err > 1e-6:
    failures += 1
print(f"{'PASS' if err <= 1e-6 else 'FAIL'} in-place ops on views, zero_, fill_, copy_: {err:.2e}")

# Capture defers GPU ops whose kernels are not compiled yet (their results fill themselves if
# read before the compiled graph replaces them): compiled first, on shapes no earlier case
# used, with a graph break that reads traced values, an in-place write after a traced read of
# the same input, and an intermediate returned next to what it feeds.
def compiled_first(name, fn, inputs, tol=1e-5):
    global failures
    want = fn(*[t.clone() for t in inputs])
    try:
        got = torch.compile(fn)(*[t.clone().cuda() for t in inputs])
    except Exception as e:
        failures += 1
        print(f"FAIL {name}: {type(e).__name__}: {e}")
        return
    if not isinstance(want, tuple):
        want, got = (want,), (got,)
    err = max(rel_err(g, w) for g, w in zip(got, want))
    if err > tol:
        failures += 1
    print(f"{'PASS' if err <= tol else 'FAIL'} {name} (compiled first): {err:.2e}")


def reads_traced_value(u, v):
    s = torch.tanh(u) * v
    n = float(s.sum())  # a graph break that reads s
    return torch.sigmoid(s) + n


def writes_after_read(u, v):
    t = torch.exp(u) + v
    u.add_(1.0)  # the traced exp read u before this
    return t * 2 + u


def returns_intermediate(u, v):
    m = torch.cos(u)
    return m, torch.relu(m - v), m.sum(dim=0)


pair = [torch.randn(37, 91), torch.randn(37, 91)]
compiled_first("graph break reads a traced value", reads_traced_value, pair, 1e-4)
compiled_first("in-place write after a traced read", writes_after_read, [torch.randn(29, 53), torch.randn(29, 53)])
compiled_first("intermediate returned with its users", returns_intermediate, [torch.randn(41, 67), torch.randn(41, 67)], 1e-4)


# Arguments past 105615 take libdevice's long range reduction, which Kiln's kernels call out of
# line (codegen/cuda/prelude.cpp, kTrig); values either side of it, and far out.
big = torch.cat([torch.linspace(-3e6, 3e6, 4096), torch.linspace(105000.0, 106500.0, 4096),
                 torch.randn(4096) * 1e9])
check("sin cos tan of large arguments", lambda a: torch.sin(a) + torch.cos(a) * torch.tan(a * 0.5),
      [big], 1e-5)


def misaligned(name, fn, shape, tol=1e-5):
    """fn compiled on a view that starts one element into its storage: the kernels' vector path
    cannot take it, so the launch compiles and runs their scalar path (on first use)."""
    global failures
    flat = torch.randn(math.prod(shape) + 1)
    want = fn(flat[1:].view(shape))
    gpu = flat.cuda()[1:].view(shape)
    try:
        err = rel_err(torch.compile(fn)(gpu), want)
    except Exception as e:
        failures += 1
        print(f"FAIL {name}: {type(e).__name__}: {e}")
        return
    if err > tol:
        failures += 1
    print(f"{'PASS' if err <= tol else 'FAIL'} {name} (misaligned view): {err:.2e}")


misaligned("sin+cos", lambda a: torch.sin(a) + torch.cos(a), (1 << 16,))
misaligned("softmax", lambda a: torch.softmax(a, -1), (300, 512))
misaligned("gelu(layer_norm)", lambda a: F.gelu(F.layer_norm(a, (512,))), (300, 512), 1e-4)


def sizes_in_turn(name, fn, sizes, tol=1e-5):
    """One compiled fn over inputs of several lengths: after the first change the graph is
    dynamic, and a length that is not a multiple of the vector width takes the scalar path."""
    global failures
    compiled = torch.compile(fn)
    errs = []
    for n in sizes:
        a = torch.randn(n)
        errs.append(rel_err(compiled(a.cuda()), fn(a)))
    ok = max(errs) <= tol
    if not ok:
        failures += 1
    print(f"{'PASS' if ok else 'FAIL'} {name} (lengths {sizes}): " +
          " ".join(f"{e:.2e}" for e in errs))


sizes_in_turn("exp * 2 + 1 over dynamic lengths", lambda a: torch.exp(a) * 2 + 1, [4096, 8192, 4099, 4100])

# addmm whose bias is not one value per output column: a full bias is copied into the output
# on the device, a broadcast one through host memory, then the product adds to it (beta). The
# copy runs inside the product's launch, so its CUPTI record widens that launch.
mats = [torch.randn(48, 32), torch.randn(32, 40)]
compiled_first("addmm with a full bias", lambda m, a, b: torch.addmm(m, a, b),
               [torch.randn(48, 40)] + mats, 1e-4)
compiled_first("addmm with a row bias, beta 0.5", lambda m, a, b: torch.addmm(m, a, b, beta=0.5),
               [torch.randn(48, 1)] + mats, 1e-4)
compiled_first("addmm with a column bias, beta 2", lambda m, a, b: torch.addmm(m, a, b, beta=2.0),
               [torch.randn(40)] + mats, 1e-4)
# isclose, allclose and equal on CUDA tensors (composed of device ops): infinities, NaN with and
# without equal_nan, tolerances, a dtype mismatch.
ca = torch.tensor([1.0, float("inf"), float("nan"), 2.0, -3.0])
cb = torch.tensor([1.0 + 1e-7, float("inf"), float("nan"), 2.1, -3.0])
closeness = [
    ("isclose", torch.isclose(ca.cuda(), cb.cuda()).cpu().tolist() == torch.isclose(ca, cb).tolist()),
    ("isclose equal_nan", torch.isclose(ca.cuda(), cb.cuda(), equal_nan=True).cpu().tolist()
     == torch.isclose(ca, cb, equal_nan=True).tolist()),
    ("allclose", torch.allclose(ca.cuda(), cb.cuda()) == torch.allclose(ca, cb)),
    ("allclose within atol", torch.allclose(ca[[0, 1, 4]].cuda(), cb[[0, 1, 4]].cuda())),
    ("allclose rtol", torch.allclose(ca[3:4].cuda(), cb[3:4].cuda(), rtol=0.1)),
    ("equal", torch.equal(ca[:2].cuda(), ca[:2].cuda()) and not torch.equal(ca.cuda(), ca.cuda())),
    ("tensor.allclose", ca[:2].cuda().allclose(cb[:2].cuda())),
]
try:
    torch.allclose(ca.cuda(), cb.double().cuda())
    closeness.append(("dtype mismatch raises", False))
except RuntimeError as e:
    closeness.append(("dtype mismatch raises", str(e) == "Float did not match Double"))
for name, ok in closeness:
    if not ok:
        failures += 1
    print(f"{'PASS' if ok else 'FAIL'} {name} on cuda")
print(f"failures: {failures}")
