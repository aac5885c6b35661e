// SPDX-License-Identifier: MIT
// Attention written out by hand (compiler/match_attention.h), on a machine without a GPU: a
// backend keeps the captured graph (traced on the CPU), its values are marked as on cuda:0,
// and the decompose pass turns it into one flash_attention node (with the mask as a fourth
// input), or leaves it as products and a softmax where the fused kernel does not apply.
#include "compiler/aten_graph.h"
#include "compiler/decompose_ops.h"
#include "compiler_fixture.h"
#include "graph/graph_module.h"
#include "lang/objects.h"

#include <QtTest>
#include <algorithm>

using namespace kiln;

namespace {

/// The model and its call; {dtype}, {fill}, {scale}, {extra} are replaced per case.
constexpr const char* kScript = R"(import math
import torch
import torch.nn as nn
import torch.nn.functional as F

graphs = []
def keep(gm, inputs):
    graphs.append(gm)
    return gm.forward

class Attention(nn.Module):
    def __init__(self, t):
        super().__init__()
        self.register_buffer("causal", torch.tril(torch.ones(t, t)).view(1, 1, t, t))
        self.drop = nn.Dropout({p})

    def forward(self, q, k, v):
        t = q.size(-2)
        att = (q @ k.transpose(-2, -1)){scale}
        att = att.masked_fill(self.causal[:, :, :t, :t] == 0, {fill})
        {extra}
        return {probs} @ v

q = torch.randn(2, 3, 16, 64).to({dtype})
m = Attention(16){mode}
torch.compile(m, backend=keep)(q, q, q)
)";

struct Case {
    std::string dtype = "torch.bfloat16";
    std::string fill = "float('-inf')";
    std::string scale = " * (1.0 / math.sqrt(k.size(-1)))";
    std::string extra;
    std::string probs = "F.softmax(att, dim=-1)";
    std::string p = "0.0";
    std::string mode;
};

std::string script(const Case& c) {
    std::string s = kScript;
    auto put = [&](const std::string& key, const std::string& value) {
        s.replace(s.find(key), key.size(), value);
    };
    put("{scale}", c.scale);
    put("{fill}", c.fill);
    put("{extra}", c.extra);
    put("{probs}", c.probs);
    put("{p}", c.p);
    put("{mode}", c.mode);
    put("{dtype}", c.dtype);
    return s;
}

struct Decomposed {
    std::vector<std::string> ops;
    const compiler::AtenNode* attention = nullptr;
    compiler::AtenGraph graph;
};

/// The first graph the backend kept, its values on cuda:0 (where flash_attention applies),
/// decomposed.
Decomposed decompose(testing::CompilerFixture& f, compiler::DecomposeOptions options = {}) {
    Decomposed out;
    const lang::Value* graphs =
        f.interp.importModule("__main__")->globals.find(lang::Symbol::intern("graphs"));
    if (!graphs || !graphs->is(lang::ObjectKind::List)) return out;
    const auto& items = graphs->as<lang::ListObject>()->items;
    if (items.empty()) return out;
    graph::Graph g = *graph::graphOf(items[0]);
    for (graph::Node& n : g.nodes)
        if (n.meta.kind == graph::ValueMeta::Kind::Tensor) n.meta.device = "cuda:0";
    compiler::DecomposeResult d = compiler::decomposeGraph(f.interp, g, options);
    if (!d.graph) return out;
    out.graph = std::move(*d.graph);
    for (const compiler::AtenNode& n : out.graph.nodes) {
        out.ops.push_back(n.op);
        if (n.op == "flash_attention") out.attention = &n;
    }
    return out;
}

bool has(const std::vector<std::string>& ops, const std::string& op) {
    return std::find(ops.begin(), ops.end(), op) != ops.end();
}

} // namespace

class TstMatchAttention : public QObject {
    Q_OBJECT

private slots:
    void maskedSoftmaxOfProductsIsFlashAttention() {
        testing::CompilerFixture f;
        QCOMPARE(f.run(script({})), std::string());
        Decomposed d = decompose(f);
        QVERIFY2(d.attention, "no flash_attention node");
        QCOMPARE(d.attention->inputs.size(), size_t(4)); // q, k, v and the mask
        QCOMPARE(d.attention->scalar, 1.0 / 8.0);
        QCOMPARE(d.attention->scalar2, double(compiler::kAttentionEmptyRowsNan));
        // The mask is the boolean `causal == 0`; the scores are never materialized.
        const compiler::AtenNode& mask = d.graph.nodes[static_cast<size_t>(d.attention->inputs[3])];
        QCOMPARE(mask.dtype, tensor::DType::Bool);
        QVERIFY(!has(d.ops, "bmm"));
        QVERIFY(!has(d.ops, "amax"));
        QVERIFY(!has(d.ops, "exp"));
        // The kernel shows the steps it computes as its fused nodes.
        std::vector<std::string> steps = d.attention->alsoComputes;
        std::sort(steps.begin(), steps.end());
        // Node names: `att = ...` renames the mul and then the masked_fill (2.3's STORE_FAST).
        QCOMPARE(steps,
                 (std::vector<std::string>{"att", "att_1", "matmul", "softmax", "transpose"}));
        QCOMPARE(d.attention->origin, std::string("matmul_1"));
        // torch._inductor.config.pattern_matcher = False keeps the graph as written.
        compiler::DecomposeOptions asWritten;
        asWritten.matchAttention = false;
        Decomposed kept = decompose(f, asWritten);
        QVERIFY(!kept.attention);
        QVERIFY(has(kept.ops, "bmm"));
    }

    void scaleAsDivisionOrNoneAndFloat16Match() {
        for (auto [scale, dtype, want] :
             {std::tuple{std::string(" / 8.0"), std::string("torch.float16"), 0.125},
              std::tuple{std::string(""), std::string("torch.bfloat16"), 1.0}}) {
            testing::CompilerFixture f;
            Case c;
            c.scale = scale;
            c.dtype = dtype;
            QCOMPARE(f.run(script(c)), std::string());
            Decomposed d = decompose(f);
            QVERIFY2(d.attention, scale.c_str());
            QCOMPARE(d.attention->scalar, want);
        }
    }

    void dropoutThatKeepsEverythingIsSkipped() {
        // nanoGPT's attn_dropout: nn.Dropout(0.0) while training, any p in eval mode, or
        // F.dropout with training=False. Dropout that drops is not attention's business.
        auto fused = [](const Case& c) {
            testing::CompilerFixture f;
            if (!f.run(script(c)).empty()) return false;
            return decompose(f).attention != nullptr;
        };
        Case train0;
        train0.probs = "self.drop(F.softmax(att, dim=-1))";
        QVERIFY(fused(train0));
        Case eval = train0;
        eval.p = "0.1";
        eval.mode = ".eval()";
        QVERIFY(fused(eval));
        Case functional;
        functional.probs = "F.dropout(F.softmax(att, dim=-1), p=0.1, training=False)";
        QVERIFY(fused(functional));
        Case drops = train0;
        drops.p = "0.1";
        QVERIFY(!fused(drops));
    }

    void otherFormsStayProductsAndSoftmax() {
        // A finite fill (rows masked out entirely would average, not be NaN), float32 (the
        // fused kernel is half precision only) and scores another op also reads.
        for (auto [dtype, fill, extra] :
             {std::tuple{"torch.bfloat16", "-1e4", ""},
              std::tuple{"torch.float32", "float('-inf')", ""},
              std::tuple{"torch.bfloat16", "float('-inf')", "v = v + att.mean()"}}) {
            testing::CompilerFixture f;
            Case c;
            c.dtype = dtype;
            c.fill = fill;
            c.scale = " * 0.125";
            c.extra = extra;
            QCOMPARE(f.run(script(c)), std::string());
            Decomposed d = decompose(f);
            QVERIFY2(!d.graph.nodes.empty(), fill);
            QVERIFY2(!d.attention, (std::string(dtype) + " " + fill + " " + extra).c_str());
            QVERIFY(has(d.ops, "bmm"));
        }
    }
};

QTEST_GUILESS_MAIN(TstMatchAttention)
#include "tst_match_attention.moc"
