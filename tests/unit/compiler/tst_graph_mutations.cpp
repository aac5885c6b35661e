// SPDX-License-Identifier: MIT
// Graphs that write tensors in place compile (AtenGraph::mutations, as AOTAutograd's
// functionalization): batch norm in training mode on random inputs, compiled forward and
// backward, equals eager in outputs, gradients and running statistics; writes into inputs
// and module buffers become the graph's mutations and reach the caller's tensors; what Kiln
// cannot functionalize (a view taken before the write, aliased inputs) still runs correctly
// through the eager kernels. The golden compile/inplace_writes.py checks the same against
// PyTorch's printout; this test checks that the graphs were compiled rather than run eagerly.
#include "compiler/aten_builder.h"
#include "compiler_fixture.h"

#include <QtTest>

using namespace kiln;

namespace {

std::vector<std::string> fallbackReasons(const testing::CompilerRecorder& sink) {
    std::vector<std::string> reasons;
    for (const TimelineEvent& e : sink.otherTimeline)
        if (e.name == "eager_fallback") reasons.push_back(e.detailJson);
    return reasons;
}

std::string joined(const std::vector<std::string>& items) {
    std::string s;
    for (const std::string& i : items)
        s += i + "\n";
    return s;
}

} // namespace

class GraphMutationsTest : public QObject {
    Q_OBJECT

private slots:
    void batchNormTrainsInCompiledGraphs() {
        testing::CompilerFixture f("bn_training.py");
        std::string error = f.run(R"(
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

def net():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                         nn.Flatten(), nn.Linear(8 * 36, 10), nn.BatchNorm1d(10, momentum=None))

model, twin = net(), net()
twin.load_state_dict(model.state_dict())
compiled = torch.compile(model)
for step in range(3):
    x = torch.randn(4, 3, 6, 6)
    for m in (compiled, twin):
        m.zero_grad()
        out = m(x)
        out.square().mean().backward()
    assert out.grad_fn is not None
for (name, a), b in zip(model.state_dict().items(), twin.state_dict().values()):
    assert torch.allclose(a, b, rtol=1e-4, atol=1e-5), (name, a, b)
for a, b in zip(model.parameters(), twin.parameters()):
    assert torch.allclose(a.grad, b.grad, rtol=1e-4, atol=1e-5), (a.grad, b.grad)
assert model[1].num_batches_tracked.item() == 3
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
        QVERIFY2(fallbackReasons(f.sink).empty(), joined(fallbackReasons(f.sink)).c_str());
        bool backward = false;
        for (const KernelEvent& k : f.sink.kernels)
            backward |= k.graphKind == "aot_backward";
        QVERIFY(backward);
    }

    void writesIntoInputsReachTheCaller() {
        testing::CompilerFixture f("input_writes.py");
        std::string error = f.run(R"(
import torch

def update(x, buf, count):
    buf.mul_(0.5).add_(x.sin())
    count += 1
    return buf, x * 2

f = torch.compile(update)
buf, count = torch.randn(5, 7), torch.zeros((), dtype=torch.int64)
ref_buf, ref_count = buf.clone(), count.clone()
for i in range(3):
    x = torch.randn(5, 7)
    out, doubled = f(x, buf, count)
    update(x, ref_buf, ref_count)
    assert out is buf
    assert torch.allclose(buf, ref_buf, rtol=1e-5, atol=1e-6), (buf, ref_buf)
assert count.item() == 3 and count.dtype == torch.int64

# Written under no_grad: a parameter and its momentum buffer, from p.grad.
p = torch.randn(6, requires_grad=True)
p.grad = torch.randn(6)
momentum = torch.zeros(6)
ref_p, ref_m = p.detach().clone(), momentum.clone()

@torch.compile
def step(p, momentum):
    with torch.no_grad():
        momentum.mul_(0.9).add_(p.grad)
        p.add_(momentum, alpha=-0.1)

for i in range(3):
    step(p, momentum)
    ref_m.mul_(0.9).add_(p.grad)
    ref_p.add_(ref_m, alpha=-0.1)
assert torch.allclose(p.detach(), ref_p) and torch.allclose(momentum, ref_m)
assert p.is_leaf and p.requires_grad
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
        QVERIFY2(fallbackReasons(f.sink).empty(), joined(fallbackReasons(f.sink)).c_str());
    }

    void whatCannotBeFunctionalizedRunsEagerly() {
        testing::CompilerFixture f("unfunctionalized.py");
        std::string error = f.run(R"(
import torch

def view_first(a):
    v = a.view(-1)
    a.add_(1)
    return v * 2

q = torch.zeros(2, 2)
assert torch.equal(torch.compile(view_first)(q), torch.full((4,), 2.0))
assert torch.equal(q, torch.ones(2, 2))

def alias(a, b):
    a.add_(1)
    return a + b

g = torch.compile(alias)
x, y = torch.zeros(3), torch.zeros(3)
assert torch.equal(g(x, y), torch.ones(3))      # compiled: no aliasing
w = torch.zeros(2, 3)
assert torch.equal(g(w[0], w), torch.tensor([[2.0] * 3, [1.0] * 3]))  # a row of the other
assert torch.equal(w, torch.tensor([[1.0] * 3, [0.0] * 3]))
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
        std::vector<std::string> reasons = fallbackReasons(f.sink);
        QCOMPARE(reasons.size(), size_t(1));
        QVERIFY2(reasons[0].find("mutates a tensor in place") != std::string::npos,
                 reasons[0].c_str());
    }

    void mutationsAreOutputsAfterTheUsers() {
        compiler::AtenGraph g;
        compiler::AtenBuilder b(g);
        int32_t x = b.placeholder(0, {compiler::constant(3)}, tensor::DType::Float32);
        int32_t buf = b.placeholder(1, {compiler::constant(3)}, tensor::DType::Float32);
        int32_t sum = b.binary("add", x, buf);
        g.outputs.push_back(sum);
        QVERIFY(!b.writable(sum));
        QVERIFY(!b.writeInto(sum, x));
        std::optional<int32_t> first = b.writeInto(buf, sum);
        QVERIFY(first && *first == sum);
        QVERIFY(b.writable(sum)); // a value written into buf: writes to it go to buf
        int32_t twice = b.binary("mul", sum, b.constant(2, tensor::DType::Float32));
        QVERIFY(b.writeInto(sum, twice));
        QCOMPARE(*b.written(false, 1), twice);
        // A float64 value written into a float32 input is converted first.
        int32_t wide = b.toDtype(x, tensor::DType::Float64);
        std::optional<int32_t> converted = b.writeInto(x, wide);
        QVERIFY(converted && b.dtype(*converted) == tensor::DType::Float32);
        b.finishMutations();
        QCOMPARE(g.outputs.size(), size_t(3));
        QCOMPARE(g.mutations.size(), size_t(2));
        QCOMPARE(g.mutations[0].position, 1);
        QCOMPARE(g.mutations[0].output, 1);
        QCOMPARE(g.outputs[1], twice);
        QVERIFY(!g.isMutationOutput(0));
        QVERIFY(g.isMutationOutput(1) && g.isMutationOutput(2));
    }
};

QTEST_GUILESS_MAIN(GraphMutationsTest)
#include "tst_graph_mutations.moc"
