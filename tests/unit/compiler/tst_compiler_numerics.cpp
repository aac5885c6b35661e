// SPDX-License-Identifier: MIT
// Compiled code against the eager interpreter on random inputs: every op the compiler lowers
// and every fusion pattern, on contiguous, transposed, sliced and broadcast inputs, static and
// dynamic sizes, in float32, float64 and bfloat16. Buffers are poisoned (NaN) before each run,
// so a kernel that skips an element cannot pass by reusing old memory.
#include "compiler_fixture.h"

#include <QtTest>
#include <cstdlib>

using namespace kiln;

namespace {

const char* kHarness = R"(
import torch
import torch.nn as nn
import torch.nn.functional as F

TOL = {torch.float32: (1e-4, 1e-5), torch.float64: (1e-9, 1e-11), torch.bfloat16: (3e-2, 3e-2)}

def same(got, want, dtype):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), "output count"
        for g, w in zip(got, want):
            same(g, w, dtype)
        return
    assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
    assert got.dtype == want.dtype, f"dtype {got.dtype} != {want.dtype}"
    if want.dtype in (torch.bool, torch.int64, torch.int32):
        assert torch.equal(got, want), "integer results differ"
        return
    rtol, atol = TOL[dtype]
    g, w = got.double(), want.double()
    assert torch.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True), \
        f"max abs error {(g - w).abs().max().item()}"

def layouts(shape, dtype):
    base = torch.randn(*shape).to(dtype)
    out = [("contiguous", base)]
    if len(shape) == 2:
        out.append(("transposed", torch.randn(shape[1], shape[0]).to(dtype).t()))
        out.append(("sliced", torch.randn(shape[0], shape[1] * 2).to(dtype)[:, ::2]))
        out.append(("broadcast", torch.randn(1, shape[1]).to(dtype).expand(*shape)))
    return out

def reference(fn, args, dtype):
    # bfloat16: compiled code computes in float32 and rounds once (as Inductor does), so the
    # reference is float32 eager rounded to bfloat16, not bfloat16 eager rounding every op.
    if dtype != torch.bfloat16:
        return fn(*args)
    want = fn(*tuple(a.float() if a.dtype == torch.bfloat16 else a for a in args))
    if isinstance(want, tuple):
        return tuple(w.to(dtype) if w.dtype == torch.float32 else w for w in want)
    return want.to(dtype) if want.dtype == torch.float32 else want

def check(fns, shapes, dtypes, dynamic=None, extra=()):
    failures = []
    for fn in fns:
        for dtype in dtypes:
            torch._dynamo.reset()
            compiled = torch.compile(fn, dynamic=dynamic)
            for shape in shapes:
                for name, x in layouts(shape, dtype):
                    args = (x,) + tuple(e.to(dtype) if e.is_floating_point() else e for e in extra)
                    want = reference(fn, args, dtype)
                    try:
                        got = compiled(*args)
                        same(got, want, dtype)
                    except AssertionError as e:
                        failures.append(f"{fn.__name__} {dtype} {shape} {name}: {e}")
    assert not failures, "\n".join(failures)
)";

const char* kPointwise = R"(
def unary_math(x):
    return (x.exp() * 0.1 + (x.abs() + 1).log() + x.abs().sqrt() + (x.abs() + 1).rsqrt()
            + x.sin() + x.cos() + x.tanh() + x.erf() + torch.tan(x * 0.5))
def rounding(x):
    y = x * 3
    return y.floor() + y.ceil() * 2 + y.round() * 3 + y.sign() * 4 + (x.abs() + 1).reciprocal()
def activations(x):
    return F.relu(x) + torch.sigmoid(x) + F.silu(x) + F.gelu(x) + F.gelu(x, approximate="tanh")
def leaky(x):
    return F.leaky_relu(x), F.leaky_relu(x, 0.2)
def squared_error(x):
    return F.mse_loss(x, x * 0.5), F.mse_loss(x, x * 0.5, reduction="sum"), F.mse_loss(x, x * 0.5, reduction="none")
def arithmetic(x):
    y = x * 2 - 1
    return (torch.add(x, y, alpha=2) - y / (x.abs() + 1) + x ** 2 + x.abs() ** 0.5 + torch.maximum(x, y) - torch.minimum(x, 0.5 * y) + 3 - x
            + torch.addcmul(x, y, x, value=0.3) + x.addcdiv(y, x.abs() + 1, value=-2))
def comparisons(x):
    m = (x > 0) & (x < 1) | (x == 0)
    return torch.where(m, x, -x).masked_fill(x < -1, 7.0), (x >= 0.5), x.clamp(-0.5, 0.5) + x.clamp_min(0)
def powers(x):
    return x.abs() ** 1.7 + torch.pow(x, 3) + (x * x).sum(-1, keepdim=True) ** -1
def sin_cos(x):
    return torch.sin(x) + torch.cos(x)
def to_dtypes(x):
    return x.double().float() * 2, (x > 0).long() + 1, x.to(torch.float64)
)";

const char* kReductions = R"(
def reductions(x):
    return (x.sum(), x.sum(0), x.sum(-1, keepdim=True), x.mean(1), x.amax(0), x.amin(-1),
            x.prod(1), x.argmax(1), x.argmin(0), x.var(1), x.std(0, keepdim=True))
def softmaxes(x):
    return torch.softmax(x, -1), torch.softmax(x, 0), F.log_softmax(x, dim=1), x.softmax(dim=-1)
def row_softmax(x):
    m = x.amax(-1, keepdim=True)
    e = (x - m).exp()
    return e / e.sum(-1, keepdim=True)
def norms(x):
    w = torch.arange(x.shape[-1]) * 0.01 + 0.5
    return F.gelu(F.layer_norm(x, (x.shape[-1],))), F.layer_norm(x, (x.shape[-1],), w.to(x.dtype), None, 1e-3)
def extremes(x):
    return x.max(1)[0], x.max(1)[1], x.min(0, keepdim=True)[0], torch.max(x), torch.logsumexp(x, 1)
def reduce_then_pointwise(x):
    s = x.sum(1, keepdim=True)
    return x / (s.abs() + 1) + x.amax(), (x - x.mean()).abs().sum(0)
)";

const char* kShapes = R"(
def views(x):
    y = x.t() * 2
    return y.reshape(-1) + 1, x.permute(1, 0)[1:, ::2] - 1, x.unsqueeze(0).expand(2, -1, -1) * x
def properties(x):
    return x.T * 2, x.mT + 1, x.unsqueeze(0).T.sum(0)
def indexing(x):
    return x[0] * 2, x[:, 1] + 1, x[None, ..., 2:] * 3, x[-1:, :3].flatten()
def reshapes(x):
    return x.t().reshape(x.shape[1], -1).sum(0), x.reshape(-1)[::3] * 2
def broadcasting(x):
    col = x[:, :1]
    row = x[:1, :]
    return x * col - row, (col + row).exp()
def joins(x):
    return torch.cat([x, x * 2], 0), torch.stack([x, x + 1], 1), x.narrow(1, 1, 2), torch.tril(x), x.triu(1)
def pieces(x):
    return tuple(t * 2 for t in x.split(2, 1)) + tuple(x.chunk(2, 0))
def creation(x):
    return (torch.zeros(3, 4) + 1, torch.ones_like(x) * x, torch.full((2, 2), 7.0), torch.arange(6) * 2,
            torch.linspace(0, 1, 4) + x[0, :4], torch.arange(0.5, 2.0, 0.25) * 2)
def fallback_mixed(x):
    return torch.cumsum(x.sin(), dim=1) * 2 + torch.cat([x, x * 2], 1)[:, ::2]
)";

const char* kMatmul = R"(
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(12, 24)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(24, 12)
        self.norm = nn.LayerNorm(12)
    def forward(self, x):
        return self.norm(x + self.fc2(self.act(self.fc1(x))))
mlp = MLP()
def module(x):
    return mlp(x)
def products(x, w):
    return x @ w, torch.mm(x, w).relu(), torch.addmm(w[0], x, w, beta=0.5, alpha=2), F.linear(x, w.t(), w[1])
def attention(x, w):
    q, k, v = x[None, None], w[None, None], (x * w)[None, None]
    return F.scaled_dot_product_attention(q, k, v), F.scaled_dot_product_attention(q, k, v, is_causal=True)
def split_heads(x, w):
    # Views of one projection's slices (rows strided by the whole width) feeding the products.
    qkv = torch.cat([x, x * 2, w], dim=1)
    q, k, v = qkv.split(7, dim=1)
    heads = qkv[:, :14].view(7, 2, 7).transpose(0, 1)
    return (q.reshape(7, 7) @ k.t(), torch.bmm(heads, v.unsqueeze(0).expand(2, 7, 7)),
            heads.reshape(2, 49) * 3)
def batched(x, w):
    b = x.unsqueeze(0).expand(3, -1, -1) * 2
    return torch.bmm(b, w.unsqueeze(0).expand(3, -1, -1)), b @ w
)";

} // namespace

class CompilerNumericsTest : public QObject {
    Q_OBJECT

private:
    void check(const char* functions, const std::string& call) {
        testing::CompilerFixture f("numerics.py");
        std::string error =
            f.run(std::string(kHarness) + functions + "\ntorch.manual_seed(0)\n" + call);
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
        QVERIFY2(!f.sink.kernels.empty(), "nothing was compiled");
    }

private slots:
    void initTestCase() { ::setenv("KILN_POISON_BUFFERS", "1", 1); }

    void pointwiseFloat32() {
        check(kPointwise, "check([unary_math, rounding, activations, leaky, squared_error, "
                          "arithmetic, comparisons, "
                          "powers, sin_cos, to_dtypes], [(5, 7), (16, 33)], [torch.float32])");
    }
    void pointwiseFloat64AndBFloat16() {
        check(kPointwise, "check([unary_math, activations, arithmetic, sin_cos], [(6, 9)], "
                          "[torch.float64, torch.bfloat16])");
    }
    void reductionsStatic() {
        check(kReductions,
              "check([reductions, softmaxes, row_softmax, norms, extremes, "
              "reduce_then_pointwise], [(4, 8), (9, 130)], [torch.float32, torch.float64])");
    }
    void columnSumsMatchEager() {
        // Sums over leading dims of what is contiguous along the kept one (bias and norm-weight
        // gradients) are emitted a block of 64 outputs at a time: ragged blocks, several kept
        // dims, a pointwise producer, float64 and float16 against eager on random inputs.
        testing::CompilerFixture f("column_sums.py");
        std::string error = f.run(R"(
import torch
torch.manual_seed(3)
cases = [
    (lambda x: x.sum(0), (torch.randn(300, 200),)),
    (lambda x: x.sum((0, 1)), (torch.randn(4, 33, 130),)),
    (lambda x: (x * 2 + 1).exp().sum(1), (torch.randn(5, 70, 65),)),
    (lambda x, y: (x * torch.erf(y)).sum(0), (torch.randn(129, 67), torch.randn(129, 67))),
    (lambda x: x.sum(0), (torch.randn(64, 128, dtype=torch.float64),)),
    (lambda x: x.sum(0), (torch.randn(40, 96).half(),)),
    (lambda x: x.t().contiguous().t().sum(0), (torch.randn(50, 7),)),
    (lambda x, y: (x * y).view(24, 96).sum(0), (torch.randn(4, 6, 96), torch.randn(4, 6, 96))),
]
for i, (fn, args) in enumerate(cases):
    torch._dynamo.reset()
    got, want = torch.compile(fn)(*args), fn(*args)
    tol = 1e-2 if want.dtype == torch.float16 else 1e-5
    assert got.dtype == want.dtype and got.shape == want.shape, i
    assert torch.allclose(got, want, rtol=tol, atol=tol), (i, (got - want).abs().max())
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
    }

    void reviewFindingsStayFixed() {
        // Cases a review found compiled wrongly: each must equal eager exactly (or closely).
        testing::CompilerFixture f("review.py");
        std::string error = f.run(R"(
import torch
import torch.nn.functional as F
def same(fn, *args, mode=None, options=None):
    want = fn(*args)
    got = torch.compile(fn, mode=mode, options=options)(*args)
    if not isinstance(want, tuple):
        want, got = (want,), (got,)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape, (g, w)
        assert torch.allclose(g.double(), w.double(), rtol=1e-5, atol=1e-6, equal_nan=True), (g, w)
x1 = torch.tensor([1.0, 2.0, 4.0, 8.0, 3.0])
same(lambda a: (a.var(), a.std(), F.layer_norm(a, (5,))), x1)          # Welford without outer loops
a = torch.tensor([True, True, False, False])
b = torch.tensor([True, False, True, False])
same(lambda a, b: (a + b, a * b, a > b, a < b, torch.maximum(a, b), torch.minimum(a, b),
                   a.amax(), b.amin(), a.max(0)[0], (a + b).sum()), a, b)   # bools are not -1
i32 = torch.tensor([-5, -3, -9], dtype=torch.int32)
same(lambda v: (v.amax(), v.amin(), v.max(0)[1]), i32)                  # int32 identities
same(lambda a: (a.var(-1, correction=3), torch.zeros(2, 0).var(-1)), torch.tensor([[1.0, 2.0], [3.0, 5.0]]))
q = torch.ones(1, 1, 2, 2)
m = torch.tensor([[True, True], [False, False]])
same(lambda q, m: F.scaled_dot_product_attention(q, q, q, attn_mask=m), q, m)   # safe softmax
c = torch.full((4, 64), float("nan"))
for gemm in ("TRITON", "ATEN"):   # the template and the BLAS call, whichever would be faster
    same(lambda c, a, b: torch.addmm(c, a, b, beta=0), c, torch.ones(4, 32), torch.ones(32, 64),
         options={"max_autotune": True, "max_autotune_gemm_backends": gemm})  # beta=0 ignores the bias
same(lambda a: torch.sign(a), torch.tensor([float("nan"), -0.0, 0.0, 3.0, -2.0]))  # sign(nan) is 0
big = torch.arange(2**24, dtype=torch.float32).mul(1e-8)              # a float sum over 16M values
got = torch.compile(lambda a: a.sum())(big).item()
exact = (2**24 - 1) * 2**24 / 2 * 1e-8
assert abs(got - exact) / exact < 1e-7, (got, exact)                   # accumulates in double
h = torch.tensor([0.1, 0.2]).bfloat16()
same(lambda h: (h == 0.1, h > 0.1), h)                                  # bf16 number precision
# a.shape of a tensor with two dynamic dims: every dim stays symbolic (capture read a stale
# reference to the tensor's metadata after adding the first size node).
def halves(a):
    return a[:, : a.shape[1] // 2] * 2 + torch.arange(a.shape[1] // 2)
ch = torch.compile(halves)
for shape in ((2, 4), (3, 7), (5, 9), (6, 12)):
    x = torch.ones(shape)
    assert torch.equal(ch(x), halves(x)), shape
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
    }

    void gathersMatchEagerAndCheckTheirPositions() {
        testing::CompilerFixture f("gathers.py");
        std::string error = f.run(R"(
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
emb = nn.Embedding(50, 8)
w = torch.randn(50, 8, dtype=torch.float64)
def fn(idx, x, t):
    return (emb(idx) * 2, F.embedding(idx, w).sum(-1), torch.gather(x, 1, t[:, None]),
            F.cross_entropy(x, t), F.cross_entropy(x, t, reduction="sum"),
            F.cross_entropy(x, t, reduction="none", ignore_index=2))
c = torch.compile(fn)
for rows in (5, 9):
    idx, x, t = torch.randint(0, 50, (4, rows)), torch.randn(rows, 7), torch.randint(0, 7, (rows,))
    for got, want in zip(c(idx, x, t), fn(idx, x, t)):
        assert got.shape == want.shape and got.dtype == want.dtype
        assert torch.allclose(got, want, rtol=1e-5, atol=1e-6)
ce = torch.compile(lambda x, t: F.cross_entropy(x, t))
t2 = t.clone()
t2[1] = -100
assert torch.allclose(ce(x, t2), F.cross_entropy(x, t2))
bad = idx.clone()
bad[0, 0] = 50
try:
    c(bad, x, t)
    raise AssertionError("no IndexError")
except IndexError as e:
    assert str(e) == "index out of range in self", str(e)
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
        for (const KernelEvent& k : f.sink.kernels)
            QVERIFY2(k.kind != "fallback", k.name.c_str());
    }

    void opsWithoutEagerFallbacks() {
        // log1p, remainder, logical and bool &/|, norm and index_select decompose (on the GPU an
        // op without a decomposition has no kernel at all): compiled equals eager on random
        // inputs, in every layout, and no kernel is an eager fallback.
        testing::CompilerFixture f("decompositions.py");
        std::string error = f.run(std::string(kHarness) + R"(
def log1p_remainder(x, w):
    return (torch.log1p(x.abs()), torch.log1p(x * 1e-7), x % 0.7, torch.remainder(x, w),
            (x * 10).long() % 3, (x * 10).long() % -4, torch.remainder((x * 10).int(), 5))
def logical(x, w):
    a, b = x > 0, w < 0
    return (a & b, a | b, torch.logical_and(x, w > 0.5), torch.logical_or(x > 1, w))
def vector_norms(x, w):
    return (x.norm(dim=1), torch.norm(x), x.norm(p=1, dim=0, keepdim=True),
            x.norm(p=float("inf"), dim=1), x.norm(p=3, dim=1), torch.norm(x, "fro"))
ROWS, COLS = torch.tensor([3, 1, 4, 1]), torch.tensor([0, 2])
def selects(x, w):
    return (torch.index_select(x, 0, ROWS), x.index_select(1, COLS) * 2,
            x.index_select(-1, COLS.int()))
torch.manual_seed(0)
check([log1p_remainder, logical, vector_norms, selects], [(5, 7), (9, 6)],
      [torch.float32, torch.float64], extra=(torch.randn(1, 1) + 2,))
check([vector_norms], [(6, 9)], [torch.bfloat16], extra=(torch.randn(1, 1),))
zero = torch.compile(lambda a, b: a % b)
try:
    zero(torch.tensor([5, 7]), torch.tensor([2, 0]))
    raise AssertionError("no ZeroDivisionError")
except RuntimeError as e:
    assert str(e) == "ZeroDivisionError", str(e)
OUTSIDE = torch.tensor([0, 9])
bad = torch.compile(lambda a: a.index_select(0, OUTSIDE))
try:
    bad(torch.randn(4, 3))
    raise AssertionError("no IndexError")
except IndexError:
    pass
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
        int fallbacks = 0;
        for (const KernelEvent& k : f.sink.kernels)
            if (k.kind == "fallback") {
                qWarning("fallback: %s", k.name.c_str());
                ++fallbacks;
            }
        QCOMPARE(fallbacks, 0);
    }

    void convolutionsAreExternKernels() {
        // F.conv2d and nn.Conv2d (stride, padding incl. symmetric "same" and "valid",
        // dilation, groups, bias) compile to extern_convolution kernels whose results equal
        // eager's on random inputs; uneven "same" padding and an unbatched image stay eager
        // fallbacks, as the rule says.
        testing::CompilerFixture f("convolutions.py");
        std::string error = f.run(R"(
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
layers = nn.ModuleList([nn.Conv2d(4, 6, 3, padding=1), nn.Conv2d(6, 6, 3, stride=2, groups=3),
                        nn.Conv2d(6, 4, (3, 1), padding="same", dilation=2, bias=False),
                        nn.Conv2d(4, 4, 1, padding="valid")])
def extern_only(x, w, b):
    y = x
    for layer in layers:
        y = torch.relu(layer(y))
    return y, F.conv2d(x, w, b, 1, (2, 1), (2, 1)), F.conv2d(x, w, stride=(1, 2))
uneven = nn.Conv2d(4, 2, 2, padding="same")
def eager_ones(x):
    return uneven(x), F.conv2d(x[0], uneven.weight)
torch.set_grad_enabled(False)  # inference graphs; tst_aot_autograd has their backward
for dtype in (torch.float32, torch.float64):
    x = torch.randn(2, 4, 11, 9, dtype=dtype)
    w = torch.randn(5, 4, 3, 3, dtype=dtype)
    b = torch.randn(5, dtype=dtype)
    layers.to(dtype)
    uneven.to(dtype)
    for fn, args in ((extern_only, (x, w, b)), (eager_ones, (x,))):
        torch._dynamo.reset()
        got, want = torch.compile(fn)(*args), fn(*args)
        for g, e in zip(got, want):
            assert g.shape == e.shape and torch.allclose(g, e, atol=1e-4), fn.__name__
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
        int convolutions = 0, fallbacks = 0;
        for (const KernelEvent& k : f.sink.kernels) {
            if (k.name == "extern_convolution") ++convolutions;
            if (k.kind == "fallback") ++fallbacks;
        }
        QCOMPARE(convolutions, 2 * 6); // per dtype: four layers, two F.conv2d calls
        QCOMPARE(fallbacks, 2 * 2);
    }

    void batchNormFoldsIntoConvolutionUnderFreezing() {
        // Under freezing and no_grad, an eval batch norm (affine or not, module or
        // F.batch_norm) that alone reads a convolution (with or without bias, grouped) is
        // folded into the convolution's weights; one whose convolution is read twice stays a
        // pointwise step. Results equal eager's; without freezing nothing folds.
        testing::CompilerFixture f("fold_batch_norm.py");
        std::string error = f.run(R"(
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 8, 3, stride=2, groups=2, bias=False)
        self.bn2 = nn.BatchNorm2d(8, affine=False)
        self.conv3 = nn.Conv2d(8, 4, 1)
        self.bn3 = nn.BatchNorm2d(4)
        self.w = nn.Parameter(torch.randn(4, 4, 3, 3) * 0.3)
    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        x = torch.relu(self.bn2(self.conv2(x)))  # bn2's node keeps its name (x is the relu)
        y = self.conv3(x)
        z = self.bn3(y)
        c = F.conv2d(z, self.w, padding=1)
        n = self.bn3
        return z + y, F.batch_norm(c, n.running_mean, n.running_var, n.weight, n.bias, False, 0.1, 1e-3)
net = Net()
with torch.no_grad():
    for bn in (net.bn1, net.bn2, net.bn3):
        bn.running_mean.uniform_(-1, 1)
        bn.running_var.uniform_(0.5, 2)
        if bn.affine:
            bn.weight.uniform_(0.5, 1.5)
            bn.bias.uniform_(-1, 1)
net.eval()
for freezing in (True, False):
    torch._inductor.config.freezing = freezing
    for dtype in (torch.float32, torch.float64):
        net.to(dtype)
        x = torch.randn(2, 3, 10, 12, dtype=dtype)
        torch._dynamo.reset()
        with torch.no_grad():
            got, want = torch.compile(net)(x), net(x)
        for g, e in zip(got, want):
            assert g.shape == e.shape and torch.allclose(g, e, rtol=1e-4, atol=1e-4), (freezing, dtype)
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
        int convolutions = 0, folded = 0, normsInPointwise = 0;
        for (const KernelEvent& k : f.sink.kernels) {
            bool norm = k.fusedNodes.find("bn1") != std::string::npos ||
                        k.fusedNodes.find("bn2") != std::string::npos ||
                        k.fusedNodes.find("batch_norm") != std::string::npos;
            if (k.name == "extern_convolution") {
                ++convolutions;
                if (norm) ++folded;
            } else if (norm) {
                ++normsInPointwise;
            }
        }
        QCOMPARE(convolutions, 2 * 2 * 4); // two modes, two dtypes, four convolutions
        QCOMPARE(folded, 2 * 3);           // freezing: all but conv3 (its output is read twice)
        QCOMPARE(normsInPointwise, 2 * 3); // without freezing: the norms are pointwise steps
    }

    void welfordVarianceIsStableAndExact() {
        // Rows far from zero (where sum-of-squares formulas lose every digit), lengths around the
        // 64-stream chunk (0 to 2 whole chunks plus tails), against a float64 reference.
        testing::CompilerFixture f("welford.py");
        std::string error = f.run(
            "import torch\nimport torch.nn.functional as F\ntorch.manual_seed(0)\n"
            "var = torch.compile(lambda x: x.var(1))\nln = torch.compile(lambda x: F.layer_norm(x, "
            "(x.shape[1],)))\n"
            "for n in (1, 2, 63, 64, 65, 129, 5000):\n"
            "    x = torch.randn(6, n) + 10000.0\n"
            "    ref = x.double().var(1)\n"
            "    got = var(x).double()\n"
            "    if n > 1:\n"
            "        assert ((got - ref).abs() <= 2e-3 * ref.abs() + 1e-3).all(), (n, got, ref)\n"
            "    want = F.layer_norm(x.double(), (n,))\n"
            "    assert (ln(x).double() - want).abs().max().item() < 2e-2, n\n");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
    }

    void reductionsBFloat16() {
        check(kReductions, "check([row_softmax, norms], [(5, 40)], [torch.bfloat16])");
    }
    void reductionsDynamic() {
        check(kReductions, "check([row_softmax, norms, reduce_then_pointwise], [(3, 8), (7, 8), "
                           "(11, 8)], [torch.float32], dynamic=True)");
    }
    void pointwiseDynamic() {
        check(kPointwise, "check([sin_cos, arithmetic, comparisons], [(3, 5), (8, 5), (13, 5)], "
                          "[torch.float32], dynamic=True)");
    }
    void viewsAndIndexing() {
        check(
            kShapes,
            "check([views, properties, indexing, reshapes, broadcasting, joins, pieces, creation, "
            "fallback_mixed], "
            "[(6, 10), (9, 4)], [torch.float32, torch.float64])");
    }
    void matrixProducts() {
        check(kMatmul, "check([module], [(5, 12)], [torch.float32])\n"
                       "check([products, batched, attention, split_heads], [(7, 7)], "
                       "[torch.float32, torch.float64], "
                       "extra=(torch.randn(7, 7),))");
    }
};

QTEST_GUILESS_MAIN(CompilerNumericsTest)
#include "tst_compiler_numerics.moc"
