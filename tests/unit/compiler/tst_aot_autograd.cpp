// SPDX-License-Identifier: MIT
// AOT autograd (issue 16): graphs whose outputs require grad compile a forward and a backward
// graph, and backward through CompiledFunctionBackward gives eager's gradients on random
// inputs, for every family of the differentiation rules (compiler/differentiate.cpp); dynamic
// sizes reach the backward; saved tensors keep PyTorch's in-place and retain_graph errors; ops
// the eager kernels run are differentiated by the eager autograd.
#include "compiler/aten_builder.h"
#include "compiler/differentiate.h"
#include "compiler/partition_joint.h"
#include "compiler_fixture.h"

#include <QtTest>
#include <map>

using namespace kiln;

namespace {

const char* kHelpers = R"(
import torch
import torch.nn.functional as F

def check(fn, *args, dynamic=False, name=""):
    compiled = torch.compile(fn, dynamic=dynamic)
    eager_args = [a.detach().clone().requires_grad_(a.requires_grad) for a in args]
    for call in range(2):
        c_args = [a.detach().clone().requires_grad_(a.requires_grad) for a in args]
        out = compiled(*c_args)
        if call == 1:
            assert out.grad_fn.name() == "CompiledFunctionBackward", (name, out.grad_fn)
        out.backward()
    ref = fn(*eager_args)
    ref.backward()
    assert torch.allclose(out, ref, rtol=1e-4, atol=1e-5), (name, out, ref)
    for i, (a, b) in enumerate(zip(c_args, eager_args)):
        if b.grad is None:
            assert a.grad is None, (name, i)
            continue
        assert torch.allclose(a.grad, b.grad, rtol=1e-4, atol=1e-5), (name, i, a.grad, b.grad)
)";

const char* kFamilies = R"(
import inspect
torch.manual_seed(0)
x = torch.randn(5, 7, requires_grad=True)
y = torch.randn(5, 7, requires_grad=True)
w = torch.randn(7, requires_grad=True)
m = torch.randn(7, 3, requires_grad=True)
pos = (torch.rand(5, 7) + 0.5).requires_grad_()
cases = {
    "unary": lambda x, pos: (x.neg().exp() + x.abs() + pos.log() + pos.sqrt() + pos.rsqrt() + x.sin()
                             + x.cos() + (x * 0.3).tan() + x.tanh() + torch.erf(x) + pos.log1p()
                             + pos.reciprocal() + x.sigmoid() + F.gelu(x) + F.silu(x)).sum(),
    "binary": lambda x, y, pos: ((x + y) * (x - y) / pos + pos ** y + x ** 2 + torch.remainder(x, pos)
                                 + torch.maximum(x, y) - torch.minimum(x, y)).sum(),
    "broadcast": lambda x, w: (x * w + w / (x.abs() + 1) - x.sum(dim=1, keepdim=True) * w).mean(),
    "where, clamp, relu": lambda x, y: (torch.where(x > y, x * y, y.exp()) + x.clamp(-0.5, 0.5)
                                        + F.relu(y) + F.leaky_relu(x, 0.1)).sum(),
    "reductions": lambda x: (x.sum(0) * x.mean(1).sum() + x.amax(1).sum() + x.amin(0).sum()
                             + x.var(1).sum() + x.std() + x.max() - x.min()).sum(),
    "softmax family": lambda x, y: (F.softmax(x, -1) * y).sum() + F.log_softmax(y, 0)[2].sum()
                                   + torch.logsumexp(x, 1).sum(),
    "layer_norm": lambda x, w: (F.layer_norm(x, (7,), w, w * 0.5) * x).sum(),
    "views": lambda x: (x.t().reshape(35)[3:30].view(3, 9) * torch.arange(27.0).view(3, 9)).sum()
                       + x.permute(1, 0)[::1, 2:].sum() + x.unsqueeze(0).expand(3, 5, 7).sum(),
    "slices, cat, stack": lambda x, y: (torch.cat([x[:, :3], y[1:, 4:].sum(0, keepdim=True).expand(5, 3)], 1)
                                        * torch.stack([x, y], 0).sum(0)[:, :6]).sum(),
    "products": lambda x, m, w: ((x @ m).tanh().sum() + (x @ w).sum()
                                 + torch.bmm(x.view(1, 5, 7), m.view(1, 7, 3)).sum()
                                 + torch.addmm(w[:3], x, m, beta=0.5, alpha=2.0).sum()),
    "linear": lambda x, m, w: F.linear(x, m.t(), w[:3]).pow(2).sum(),
    "triangle": lambda x: (torch.tril(x) * 2 + torch.triu(x, 1)).sum(),
    "mse": lambda x, y: F.mse_loss(x, y) + F.mse_loss(x, y, reduction="sum"),
}
args = {"x": x, "y": y, "w": w, "m": m, "pos": pos}
for name, fn in cases.items():
    names = inspect.signature(fn).parameters
    check(fn, *[args[n] for n in names], name=name)
)";

} // namespace

class AotAutogradTest : public QObject {
    Q_OBJECT

private slots:
    void everyFamilyMatchesEagerOnRandomInputs() {
        testing::CompilerFixture f("aot_families.py");
        std::string error = f.run(std::string(kHelpers) + kFamilies);
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
        bool backwardPasses = false;
        for (const TimelineEvent& p : f.sink.passes)
            backwardPasses |= p.name == "generate_code (backward)";
        QVERIFY(backwardPasses);
        for (const TimelineEvent& e : f.sink.otherTimeline)
            QVERIFY2(e.name != "eager_fallback", e.detailJson.c_str());
    }

    void attentionDropoutGradientsUseTheForwardMask() {
        // With v the identity, attention's output is its dropped-out probability matrix P, and
        // d sum(P v) / dv = P^T 1: the backward must use the mask the forward drew. (An eager
        // kernel re-run for its gradient would draw another: the graph runs eagerly instead.)
        testing::CompilerFixture f("aot_attention_dropout.py");
        std::string error = f.run(R"(
import torch
import torch.nn.functional as F
torch.manual_seed(0)
q = torch.randn(1, 2, 4, 8, requires_grad=True)
k = torch.randn(1, 2, 6, 8, requires_grad=True)
v = torch.eye(6).expand(1, 2, 6, 6).clone().requires_grad_()
f = torch.compile(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, dropout_p=0.5))
for _ in range(3):
    v.grad = None
    out = f(q, k, v)
    out.sum().backward()
    expected = out.detach().transpose(-1, -2).sum(-1)
    assert torch.allclose(v.grad[..., 0], expected, atol=1e-5), (v.grad[..., 0], expected)
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
    }

    void parametersInputsAndOutputs() {
        testing::CompilerFixture f("aot_modules.py");
        std::string error = f.run(std::string(kHelpers) + R"(
import torch.nn as nn
torch.manual_seed(1)
net = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 4))
ref = nn.Sequential(nn.Linear(6, 12), nn.Tanh(), nn.Linear(12, 4))
ref.load_state_dict(net.state_dict())
compiled = torch.compile(net)
data = torch.randn(9, 6)
for step in range(3):
    for model in (compiled, ref):
        model.zero_grad()
        model(data).square().mean().backward()
for a, b in zip(net.parameters(), ref.parameters()):
    assert torch.allclose(a.grad, b.grad, rtol=1e-5, atol=1e-6), (a.grad, b.grad)
out = compiled(data)
assert out.grad_fn.name() == "CompiledFunctionBackward"
assert [type(f).__name__ for f, _ in out.grad_fn.next_functions] == ["AccumulateGrad"] * 4

# An input that needs no grad gets none; an output nothing reaches gets a zero gradient.
def two(x, w):
    return (x * w).sum(), x.exp()
xs = torch.randn(4, 3, requires_grad=True)
check(lambda x, w: two(x, w)[0], xs, torch.randn(3), name="input without grad")
f2 = torch.compile(two)
for _ in range(2):
    xs.grad = None
    first, second = f2(xs, torch.ones(3))
    second.sum().backward()
assert torch.allclose(xs.grad, xs.detach().exp())
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
    }

    void dynamicSizesReachTheBackward() {
        testing::CompilerFixture f("aot_dynamic.py");
        std::string error = f.run(std::string(kHelpers) + R"(
for n in (3, 5, 8):
    x = torch.randn(n, 4, requires_grad=True)
    check(lambda x: (F.softmax(x, 0) * torch.arange(float(n * 4)).view(n, 4)).sum() + x[1:].sum(), x,
          dynamic=True, name=f"n={n}")
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
    }

    void savedTensorsKeepTheirErrors() {
        testing::CompilerFixture f("aot_saved.py");
        std::string error = f.run(std::string(kHelpers) + R"(
fn = torch.compile(lambda x, w: (x * w).sum())
x = torch.randn(3, requires_grad=True)
for _ in range(2):
    w = torch.randn(3)
    out = fn(x, w)
w.add_(1)
try:
    out.backward()
    raise AssertionError("no error")
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e), str(e)
out = fn(x, torch.randn(3))
out.backward()
try:
    out.backward()
    raise AssertionError("no error")
except RuntimeError as e:
    assert "backward through the graph a second time" in str(e), str(e)
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
    }

    void convolutionsEmbeddingsAndCrossEntropy() {
        // Backward ops without a loop form (conv2d's input and weight gradients, embedding's
        // and gather's scatters) are extern kernels; a BatchNorm module the eager kernels run
        // hides its parameters, so that model runs through the eager kernels instead.
        testing::CompilerFixture f("aot_cnn.py");
        std::string error = f.run(std::string(kHelpers) + R"(
import torch.nn as nn
class Net(nn.Module):
    def __init__(self, norm):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.norm = nn.BatchNorm2d(8) if norm else nn.Identity()
        self.c2 = nn.Conv2d(8, 8, 3, stride=2, groups=2)
        self.emb = nn.Embedding(10, 8, padding_idx=0)
        self.fc = nn.Linear(8, 5)
    def forward(self, x, idx, target):
        h = F.relu(self.norm(self.c1(x)))
        h = F.max_pool2d(self.c2(h), 2)
        h = F.adaptive_avg_pool2d(h, 1).flatten(1) + self.emb(idx)
        return F.cross_entropy(self.fc(h), target)
torch.manual_seed(2)
x, idx, target = torch.randn(4, 3, 12, 12), torch.tensor([0, 3, 5, 0]), torch.tensor([1, 2, 0, 4])
for norm in (False, True):
    eager, compiled = Net(norm), Net(norm)
    compiled.load_state_dict(eager.state_dict())
    step = torch.compile(compiled)
    for _ in range(2):
        for model in (eager, step):
            model.zero_grad()
            loss = model(x, idx, target)
            loss.backward()
    assert loss.grad_fn.name() == "CompiledFunctionBackward", (norm, loss.grad_fn)
    for (name, a), b in zip(eager.named_parameters(), compiled.parameters()):
        assert torch.allclose(a.grad, b.grad, rtol=1e-4, atol=1e-6), (norm, name)
    assert compiled.emb.weight.grad[0].abs().sum() == 0  # padding_idx gets no gradient
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
        std::vector<std::string> names = f.kernelNames();
        for (const char* k :
             {"extern_convolution_backward_input", "extern_convolution_backward_weight",
              "extern_embedding_backward", "extern_gather_backward"})
            QVERIFY2(std::find(names.begin(), names.end(), k) != names.end(), k);
    }

    void jointGraphAndPartitionByHand() {
        // y = sin(x) * w, summed: the backward reads x (for cos) and w, saved by the forward;
        // the tangent is the loss's gradient; x and w get a gradient each.
        using namespace compiler;
        AtenGraph g;
        AtenBuilder b(g);
        int32_t x = b.placeholder(0, {constant(3)}, tensor::DType::Float32);
        int32_t w = b.placeholder(1, {constant(3)}, tensor::DType::Float32);
        int32_t sine = b.unary("sin", x);
        int32_t y = b.reduce("sum", b.binary("mul", sine, w), {}, false);
        for (AtenNode& n : g.nodes)
            n.requiresGrad = true;
        g.outputs = {y};
        g.inputCount = 2;
        g.nodeOfCaptured = {x, w, sine, y};
        QVERIFY(needsBackward(g));
        DifferentiateResult d = differentiate(g);
        QVERIFY2(d.joint, d.refusal.c_str());
        QCOMPARE(d.joint->grads.size(), size_t(2));
        PartitionedGraphs p = partitionJoint(*d.joint, {});
        QCOMPARE(p.userOutputs, 1);
        QCOMPARE(p.tangents, 1);
        QCOMPARE(p.backward.outputs.size(), size_t(2));
        QCOMPARE(p.forward.outputs.size(), size_t(1 + p.saved));
        QCOMPARE(p.backward.inputCount, p.saved + p.tangents);

        // sin(x) is a captured result marked as requiring grad, but x has lost its flag, so no
        // differentiable path reaches it: refused rather than silently without x's gradient.
        g.nodes[static_cast<size_t>(x)].requiresGrad = false;
        d = differentiate(g);
        QVERIFY(!d.joint);
        QVERIFY2(d.refusal.find("cannot follow how") != std::string::npos, d.refusal.c_str());
    }

    /// The ops of the values the forward saves for the backward.
    static std::vector<std::string> savedOps(const compiler::PartitionedGraphs& p) {
        std::vector<std::string> ops;
        const auto& outs = p.forward.outputs;
        for (size_t k = static_cast<size_t>(p.userOutputs); k < outs.size(); ++k)
            ops.push_back(p.forward.nodes[static_cast<size_t>(outs[k])].op);
        std::sort(ops.begin(), ops.end());
        return ops;
    }

    void theMinimumCutSavesTheProductNotItsGelu() {
        // gelu(x @ w).sum(): the backward reads x and w (for the products' gradients) and
        // values of the GELU (y * 0.5, y * 0.7071, erf(...) + 1). Saving the product y and
        // recomputing the GELU's steps costs one tensor instead of three, as in PyTorch.
        using namespace compiler;
        AtenGraph g;
        AtenBuilder b(g);
        int32_t x = b.placeholder(0, {constant(64), constant(32)}, tensor::DType::Float32);
        int32_t w = b.placeholder(1, {constant(32), constant(64)}, tensor::DType::Float32);
        int32_t y = b.mm(x, w);
        int32_t half = b.binary("mul", y, b.constant(0.5, tensor::DType::Float32));
        int32_t scaled = b.binary("mul", y, b.constant(0.7071067811865476, tensor::DType::Float32));
        int32_t erfPlusOne =
            b.binary("add", b.unary("erf", scaled), b.constant(1.0, tensor::DType::Float32));
        int32_t loss = b.reduce("sum", b.binary("mul", half, erfPlusOne), {}, false);
        for (AtenNode& n : g.nodes)
            n.requiresGrad = true;
        g.outputs = {loss};
        g.inputCount = 2;
        DifferentiateResult d = differentiate(g);
        QVERIFY2(d.joint, d.refusal.c_str());
        PartitionedGraphs p = partitionJoint(*d.joint, {});
        QCOMPARE(savedOps(p), (std::vector<std::string>{"mm", "placeholder", "placeholder"}));
        QCOMPARE(p.backward.outputs.size(), size_t(2));
    }

    void theMinimumCutSavesSmallReductionsNotTheSoftmax() {
        // (softmax(x, 1) * x).sum() over 64 x 64: the row maximum and the row sum are 64 times
        // smaller than their input, so they are saved and never recomputed; the exponentials
        // and the quotient are recomputed from x rather than saved.
        using namespace compiler;
        AtenGraph g;
        AtenBuilder b(g);
        int32_t x = b.placeholder(0, {constant(64), constant(64)}, tensor::DType::Float32);
        int32_t rowMax = b.reduce("amax", x, {1}, true);
        int32_t e = b.unary("exp", b.binary("sub", x, rowMax));
        int32_t rowSum = b.reduce("sum", e, {1}, true);
        int32_t softmax = b.binary("truediv", e, rowSum);
        int32_t loss = b.reduce("sum", b.binary("mul", softmax, x), {}, false);
        for (AtenNode& n : g.nodes)
            n.requiresGrad = true;
        g.outputs = {loss};
        g.inputCount = 1;
        DifferentiateResult d = differentiate(g);
        QVERIFY2(d.joint, d.refusal.c_str());
        PartitionedGraphs p = partitionJoint(*d.joint, {});
        for (size_t k = static_cast<size_t>(p.userOutputs); k < p.forward.outputs.size(); ++k) {
            const AtenNode& saved = p.forward.nodes[static_cast<size_t>(p.forward.outputs[k])];
            QVERIFY2(saved.op == "placeholder" ||
                         (saved.sizes.size() == 2 && isOne(saved.sizes[1])),
                     (saved.op + " is saved:\n" + toString(p.forward)).c_str());
        }
        QVERIFY2(p.saved >= 2, toString(p.forward).c_str());
    }

    void aotGraphsAreReportedAsPyTorchPrintsThem() {
        // A training compile reports, after its Dynamo graph, the joint graph and the forward
        // and backward graphs it was split into; the forward names what it saves, and the
        // backward takes those values under the same names, then the tangents. An inference
        // compile reports its one graph.
        testing::CompilerFixture f("aot_records.py");
        std::string error = f.run(R"(
import torch
torch.manual_seed(0)
lin = torch.nn.Linear(8, 16)
def step(x):
    return torch.sin(lin(x)).sum()
compiled = torch.compile(step)
compiled(torch.randn(4, 8)).backward()
with torch.no_grad():
    compiled(torch.randn(4, 8))
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
        std::vector<std::string> kinds;
        for (const GraphEvent& g : f.sink.graphs)
            kinds.push_back(g.kind + " " + g.compileId + " " + std::to_string(g.graphIndex));
        QCOMPARE(kinds, (std::vector<std::string>{"dynamo 0/0 0", "aot_joint 0/0 0",
                                                  "aot_forward 0/0 0", "aot_backward 0/0 0",
                                                  "dynamo 0/1 1", "aot_inference 0/1 1"}));
        const GraphEvent& forward = f.sink.graphs[2];
        const GraphEvent& backward = f.sink.graphs[3];
        QVERIFY2(forward.readableCode.starts_with("class GraphModule(torch.nn.Module):\n    def "
                                                  "forward(self, primals_1: \"f32[4, 8]\"):\n"),
                 forward.readableCode.c_str());
        // The Linear's parameters are read as Dynamo names them; sin's input is saved for cos.
        QVERIFY2(forward.readableCode.find("l__self___lin_weight = self.l__self___lin_weight") !=
                         std::string::npos ||
                     forward.readableCode.find("_weight = self.") != std::string::npos,
                 forward.readableCode.c_str());
        QVERIFY2(forward.readableCode.find("= torch.ops.aten.addmm.default(") != std::string::npos,
                 forward.readableCode.c_str());
        QVERIFY(forward.savedCount > 0);
        int64_t bytes = 0;
        for (size_t at = 0;
             (at = forward.savedTensors.find("\"bytes\": ", at)) != std::string::npos;)
            bytes += std::stoll(forward.savedTensors.substr(at += 9));
        QCOMPARE(bytes, forward.savedBytes);
        QVERIFY(forward.savedBytes >= 4 * 16 * 4); // at least sin's [4, 16] float input
        // Every saved value is a backward input, in order, then the loss's tangent.
        size_t named = 0;
        for (size_t at = 0;
             (at = forward.savedTensors.find("\"name\": \"", at)) != std::string::npos; ++named) {
            at += 9;
            std::string name =
                forward.savedTensors.substr(at, forward.savedTensors.find('"', at) - at);
            QVERIFY2(backward.readableCode.find(", " + name + ": \"") != std::string::npos,
                     (name + "\n" + backward.readableCode).c_str());
        }
        QCOMPARE(int(named), forward.savedCount);
        QVERIFY2(backward.readableCode.find("tangents_1: \"f32[]\"):") != std::string::npos,
                 backward.readableCode.c_str());
        QVERIFY2(backward.readableCode.find("torch.ops.aten.cos.default(") != std::string::npos,
                 backward.readableCode.c_str());
        // A value is set to None on the line of its last use, as FX prints it.
        QVERIFY2(backward.readableCode.find("tangents_1 = None") != std::string::npos,
                 backward.readableCode.c_str());
        QVERIFY(f.sink.graphs[5].readableCode.find("(self, arg0_1: \"f32[4, 8]\")") !=
                std::string::npos);
        QCOMPARE(f.sink.graphs[5].savedCount, 0);
        // Kernels say which graph they compute part of.
        std::map<std::string, int> kernelKinds;
        for (const KernelEvent& k : f.sink.kernels)
            ++kernelKinds[k.compileId + " " + k.graphKind];
        QVERIFY(kernelKinds["0/0 aot_forward"] > 0);
        QVERIFY(kernelKinds["0/0 aot_backward"] > 0);
        QVERIFY(kernelKinds["0/1 aot_inference"] > 0);
        QCOMPARE(int(kernelKinds.size()), 3);
    }

    void eagerKernelsRunTheirOwnDerivative() {
        // An op the compiled graph leaves to the eager kernels (max_pool2d) is run again with
        // the eager autograd in the compiled backward; a random one (dropout under
        // fallback_random) cannot be, so that graph runs through the eager kernels whole.
        testing::CompilerFixture f("aot_fallbacks.py");
        std::string error = f.run(std::string(kHelpers) + R"(
x = torch.randn(2, 3, 6, 6, requires_grad=True)
fn = lambda x: (F.max_pool2d(x * 2, 2) * torch.arange(27.0).view(3, 3, 3)).sum()
compiled = torch.compile(fn)
for _ in range(2):
    x.grad = None
    out = compiled(x)
    out.backward()
assert out.grad_fn.name() == "CompiledFunctionBackward"
xe = x.detach().clone().requires_grad_()
fn(xe).backward()
assert torch.equal(x.grad, xe.grad), (x.grad, xe.grad)

import torch._inductor.config as config
config.fallback_random = True
y = torch.randn(16, 16, requires_grad=True)
dropped = torch.compile(lambda y: F.dropout(y * 2, 0.5).sum())
for _ in range(2):
    y.grad = None
    dropped(y).backward()
assert set(y.grad.unique().tolist()) == {0.0, 4.0}, y.grad.unique()
)");
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
        bool poolBackward = false, refused = false;
        for (const KernelEvent& k : f.sink.kernels)
            poolBackward |= k.name == "fallback_max_pool2d_backward";
        for (const TimelineEvent& e : f.sink.otherTimeline)
            refused |= e.name == "eager_fallback" &&
                       e.detailJson.find("no derivative of dropout") != std::string::npos;
        QVERIFY(poolBackward);
        QVERIFY(refused);
    }
};

QTEST_GUILESS_MAIN(AotAutogradTest)
#include "tst_aot_autograd.moc"
