// SPDX-License-Identifier: MIT
// Compiled code over uint8, int8 and int16 against eager: the LLVM kernels' integer widths and
// signedness (uint8 divides, compares, widens and converts unsigned), arithmetic that wraps in
// the narrow type between fused ops, conversions from floats as the eager cast makes them, and
// the identities of max/min reductions (split ones too). The ops that have no loop form for
// these dtypes (floor division, indexing with a uint8 mask) fall back to eager kernels.
#include "compiler_fixture.h"

#include <QtTest>

using namespace kiln;

namespace {

const char* kCases = R"(
import torch

def same(got, want, where):
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    assert len(got) == len(want), where
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype, f"{where} output {i}: dtype {g.dtype} != {w.dtype}"
        assert g.shape == w.shape, f"{where} output {i}: shape {g.shape} != {w.shape}"
        ok = torch.equal(g, w) if not w.is_floating_point() else torch.allclose(g, w)
        assert ok, f"{where} output {i}: {g} != {w}"

def wraps(a, b):
    return a + b, a - b, a * b, (a + b) % 7, -a, a * 3 - 7, a + 300
def compares(a, b):
    return a > b, a >= 128, a < 2.5, a == b, torch.maximum(a, b), torch.minimum(a, b), a > -1
def converts(x):
    return x.to(torch.uint8), x.to(torch.int8), x.to(torch.int16), (x * 100).byte()
def widens(a, b):
    return a.float() / 255, a.to(torch.int16) - b.to(torch.int16), a.long() * 1000, a.to(torch.int8)
def unsigned_math(a, b):
    return a.abs(), a.sign(), a % 7, torch.remainder(a, 5), a.clamp(10, 200), torch.where(a > b, a, b)
def reductions(a):
    return a.amax(dim=1), a.amin(dim=1), a.sum(dim=1), a.argmax(dim=1), a.argmin(dim=1), a.max()
def signed_math(c, s):
    return c + s, c * 3, c.abs(), c % 3, (c < 0).sum(), s.float() / 32768, c.to(torch.uint8), s.amax(), c.amin()

torch.manual_seed(0)
a = torch.randint(0, 256, (7, 33), dtype=torch.uint8)
b = torch.randint(0, 256, (7, 33), dtype=torch.uint8)
x = torch.randn(7, 33) * 300
x[0, :6] = torch.tensor([-1.0, -1.5, 300.0, -300.0, 255.9, 256.0])
c = torch.randint(-128, 128, (7, 33), dtype=torch.int8)
s = torch.randint(-32768, 32768, (7, 33), dtype=torch.int16)
cases = [(wraps, (a, b)), (compares, (a, b)), (converts, (x,)), (widens, (a, b)),
         (unsigned_math, (a, b)), (reductions, (a,)), (signed_math, (c, s))]
for fn, args in cases:
    torch._dynamo.reset()
    same(torch.compile(fn)(*args), fn(*args), fn.__name__)
    # transposed operands: strided loads of the narrow types
    targs = tuple(t.t().contiguous().t() for t in args)
    same(torch.compile(fn)(*targs), fn(*targs), fn.__name__ + " strided")

# Reductions over many elements are split; the padding of a ragged split is the identity.
for n in (40000, 40001):
    for t in (torch.zeros(n, dtype=torch.uint8), torch.full((n,), 255, dtype=torch.uint8),
              torch.full((n,), -128, dtype=torch.int8), torch.full((n,), 32767, dtype=torch.int16)):
        torch._dynamo.reset()
        f = lambda t: (t.amax(), t.amin(), t.sum())
        same(torch.compile(f)(t), f(t), f"split {n} {t.dtype}")
)";

} // namespace

class CompilerSmallIntsTest : public QObject {
    Q_OBJECT

private slots:
    void matchEagerInLoopKernels() {
        testing::CompilerFixture f("small_ints.py");
        std::string error = f.run(kCases);
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
        int loops = 0;
        for (const KernelEvent& k : f.sink.kernels) {
            if (k.kind == "pointwise" || k.kind == "reduction") ++loops;
            // Every op of these cases has a loop form: nothing runs as an eager fallback.
            QVERIFY2(k.kind != "fallback", (k.name + " " + k.fusedNodes).c_str());
        }
        QVERIFY(loops >= 14);
        // i8 buffers are read and written as bytes, not widened to i32 storage.
        bool byteLoads = false;
        for (const KernelEvent& k : f.sink.kernels)
            byteLoads |= k.sourceCode.find("load i8") != std::string::npos;
        QVERIFY(byteLoads);
    }

    void unsupportedPatternsFallBack() {
        testing::CompilerFixture f("small_int_fallbacks.py");
        std::string error = f.run(R"(
import torch
a = torch.tensor([200, 7, 9], dtype=torch.uint8)
b = torch.tensor([3, 2, 0], dtype=torch.uint8)
mask = torch.tensor([1, 0, 1], dtype=torch.uint8)
f = torch.compile(lambda a, b: (a // torch.tensor(2, dtype=torch.uint8), a[mask] + 1))
got, want = f(a, b), (a // 2, a[mask.bool()] + 1)
assert all(torch.equal(g, w) for g, w in zip(got, want)), (got, want)
try:
    torch.compile(lambda a, b: a // b)(a, b)
    raise AssertionError("no ZeroDivisionError")
except RuntimeError as e:
    assert str(e) == "ZeroDivisionError", str(e)
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
    }
};

QTEST_GUILESS_MAIN(CompilerSmallIntsTest)
#include "tst_compiler_small_ints.moc"
