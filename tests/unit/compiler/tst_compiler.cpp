// SPDX-License-Identifier: MIT
// The compiler's structure: what fuses into one kernel and what the kernels are called, the
// deterministic IR text of the passes (golden files), graphs the compiler leaves to the eager
// kernels, launch records and the kernel cache.
#include "compiler/index_expr.h"
#include "compiler/view_strides.h"
#include "compiler_fixture.h"
#include "support/debug_sandbox.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>

using namespace kiln;

namespace {

std::string passIr(const testing::CompilerRecorder& sink, const std::string& pass) {
    for (const TimelineEvent& e : sink.passes)
        if (e.name == pass) return e.detailJson;
    return {};
}

/// The IR text inside a pass event's {"ir": "..."} (JSON string unescaped).
std::string unquote(const std::string& json) {
    size_t start = json.find(": \"");
    if (start == std::string::npos) return {};
    std::string out;
    for (size_t i = start + 3; i < json.size() && json[i] != '"'; ++i) {
        if (json[i] == '\\' && i + 1 < json.size()) {
            char c = json[++i];
            if (c == 'u' && i + 4 < json.size()) {
                out += static_cast<char>(std::stoi(json.substr(i + 1, 4), nullptr, 16));
                i += 4;
            } else {
                out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
            }
        } else {
            out += json[i];
        }
    }
    return out;
}

QString goldenPath(const char* name) {
    return QString(std::getenv("KILN_SOURCE_DIR")) + "/tests/unit/compiler/golden/" + name;
}

/// Compares `text` with the golden file; KILN_UPDATE_GOLDEN=1 rewrites the file instead.
void compareGolden(const char* name, const std::string& text) {
    QFile file(goldenPath(name));
    if (std::getenv("KILN_UPDATE_GOLDEN")) {
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text.c_str());
        return;
    }
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable("missing golden " + goldenPath(name)));
    QCOMPARE(QString::fromStdString(text), QString::fromUtf8(file.readAll()));
}

} // namespace

class CompilerTest : public QObject {
    Q_OBJECT

private slots:
    // Each test chooses its own debug directory, if any.
    void cleanup() { support::setDebugSandboxRoot(""); }

    void indexExpressionsFoldAndPrint() {
        using namespace compiler;
        Index e = constant(4096) * loopVar(0) + loopVar(1) * constant(1) + constant(0);
        QCOMPARE(QString::fromStdString(toString(e)), QString("4096*v0 + v1"));
        QVERIFY(equal(coefficientOf(e, 0), constant(4096)));
        QVERIFY(equal(coefficientOf(e, 1), constant(1)));
        QCOMPARE(evaluate(floorDiv(constant(-7), constant(2)), {}, {}), int64_t(-4));
        QCOMPARE(evaluate(modulo(constant(-7), constant(2)), {}, {}), int64_t(1));
        std::vector<int64_t> syms = {5};
        QCOMPARE(evaluate(sizeSymbol(0) * constant(3) + constant(1), {}, syms), int64_t(16));
    }

    void viewsOfStridedBuffersKeepTheirStrides() {
        using namespace compiler;
        auto list = [](std::initializer_list<int64_t> v) {
            std::vector<Index> out;
            for (int64_t x : v)
                out.push_back(constant(x));
            return out;
        };
        auto text = [](const std::optional<std::vector<Index>>& s) {
            if (!s) return std::string("copy");
            std::string out;
            for (const Index& e : *s)
                out += (out.empty() ? "" : ",") + toString(e);
            return out;
        };
        // q of a [b*t, 3c] projection: [2, 5, 12] rows of stride 36, split into 3 heads of 4.
        QCOMPARE(text(viewStrides(list({2, 5, 12}), list({180, 36, 1}), list({2, 5, 3, 4}))),
                 std::string("180,36,4,1"));
        // Merging b and t is a view too (180 = 5 * 36); merging t with the row is not.
        QCOMPARE(text(viewStrides(list({2, 5, 12}), list({180, 36, 1}), list({10, 12}))),
                 std::string("36,1"));
        QCOMPARE(text(viewStrides(list({2, 5, 12}), list({180, 36, 1}), list({2, 60}))),
                 std::string("copy"));
        // A transposed matrix flattens only by copying; size-1 dims take any stride.
        QCOMPARE(text(viewStrides(list({4, 3}), list({1, 4}), list({12}))), std::string("copy"));
        QCOMPARE(text(viewStrides(list({4, 3}), list({1, 4}), list({4, 1, 3}))),
                 std::string("1,12,4"));
        QCOMPARE(text(viewStrides(list({6}), list({2}), list({2, 3}))), std::string("6,2"));
    }

    void aCopyListsTheViewsItReadsThrough() {
        // Issue 14, finding 9: a copy of a transposed input listed no fused node, and an extern
        // product's pre-fusion box read "target=extern: " with nothing after it.
        testing::CompilerFixture f;
        QCOMPARE(f.run("import torch\n@torch.compile\ndef f(x, w):\n"
                       "    return x.t().reshape(32), x.t().reshape(4, 8) @ w\n"
                       "y = f(torch.randn(8, 4), torch.randn(8, 3))\n"),
                 std::string());
        bool sawCopy = false;
        for (const KernelEvent& k : f.sink.kernels) {
            if (k.name.find("clone") == std::string::npos) continue;
            sawCopy = true;
            QCOMPARE(k.fusedNodes, std::string("reshape,t"));
        }
        QVERIFY(sawCopy);
        bool sawPreFusion = false;
        for (const DiagramEvent& d : f.sink.diagrams) {
            if (d.kind != "pre_fusion") continue;
            sawPreFusion = true;
            QVERIFY2(d.dot.find("target=extern: \\n") == std::string::npos, d.dot.c_str());
            QVERIFY2(d.dot.find("target=extern: ") != std::string::npos, d.dot.c_str());
        }
        QVERIFY(sawPreFusion);
    }

    void sinPlusCosIsOneFusedKernel() {
        testing::CompilerFixture f;
        QCOMPARE(
            f.run(
                "import torch\n@torch.compile\ndef f(x):\n    return torch.sin(x) + torch.cos(x)\n"
                "y = f(torch.randn(1000))\n"),
            std::string());
        QCOMPARE(f.kernelNames(), std::vector<std::string>{"kiln_poi_fused_add_cos_sin_0"});
        QCOMPARE(f.sink.kernels[0].kind, std::string("pointwise"));
        QCOMPARE(f.sink.kernels[0].fusedNodes, std::string("add,cos,sin"));
    }

    void geluLayerNormAndSoftmaxAreOneKernelEach() {
        testing::CompilerFixture f;
        QCOMPARE(f.run("import torch\nimport torch.nn.functional as F\n"
                       "@torch.compile\ndef g(x):\n    return F.gelu(F.layer_norm(x, (64,)))\n"
                       "@torch.compile\ndef s(x):\n    m = x.amax(-1, keepdim=True)\n"
                       "    e = (x - m).exp()\n    return e / e.sum(-1, keepdim=True)\n"
                       "x = torch.randn(32, 64)\ng(x)\ns(x)\n"),
                 std::string());
        QCOMPARE(f.kernelNames(),
                 (std::vector<std::string>{"kiln_red_fused_gelu_layer_norm_0",
                                           "kiln_red_fused_amax_exp_sub_sum_truediv_0"}));
        QCOMPARE(f.sink.kernels[0].kind, std::string("reduction"));
    }

    void aReshapedRowReductionFeedingAProductStaysOneKernel() {
        // layer_norm over [b, t, c] feeding a linear (which reads it as [b*t, c]), and a
        // softmax over [b, h, t, t] feeding a batched product (read as [b*h, t, t]): the
        // normalized rows are written by the reduction kernel itself and the product reads
        // them through a view, rather than a second kernel recomputing them in the new shape.
        testing::CompilerFixture f;
        QCOMPARE(f.run("import torch\nimport torch.nn.functional as F\n"
                       "@torch.compile\ndef g(x, w):\n"
                       "    return F.linear(F.layer_norm(x, (64,)), w)\n"
                       "@torch.compile\ndef s(q, v):\n"
                       "    p = torch.softmax(q, -1)\n"
                       "    return torch.bmm(p.view(8, 16, 16), v)\n"
                       "g(torch.randn(2, 16, 64), torch.randn(32, 64))\n"
                       "s(torch.randn(2, 4, 16, 16), torch.randn(8, 16, 8))\n"),
                 std::string());
        QCOMPARE(f.kernelNames(),
                 (std::vector<std::string>{"kiln_red_fused_layer_norm_0", "extern_mm",
                                           "kiln_red_fused_softmax_0", "extern_bmm"}));
    }

    void mlpRunsExternProductsAroundFusedGelu() {
        testing::CompilerFixture f;
        QCOMPARE(
            f.run(
                "import torch\nimport torch.nn as nn\n"
                "class MLP(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                "        self.fc1 = nn.Linear(16, 64)\n        self.act = nn.GELU()\n"
                "        self.fc2 = nn.Linear(64, 16)\n"
                "    def forward(self, x):\n        return self.fc2(self.act(self.fc1(x)))\n"
                "m = torch.compile(MLP())\nwith torch.no_grad():\n    y = m(torch.randn(8, 16))\n"),
            std::string());
        std::vector<std::string> names = f.kernelNames();
        QCOMPARE(names.size(), size_t(3));
        QCOMPARE(names[0], std::string("extern_addmm"));
        QVERIFY2(names[1].rfind("kiln_poi_fused_", 0) == 0, names[1].c_str());
        QCOMPARE(names[2], std::string("extern_addmm"));
    }

    void passIrIsDeterministic_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("code");
        QTest::newRow("sin_cos") << "sin_cos"
                                 << "torch.sin(x) + torch.cos(x)";
        QTest::newRow("softmax") << "softmax"
                                 << "torch.softmax(x * 2, dim=-1)";
        QTest::newRow("layer_norm") << "layer_norm"
                                    << "F.gelu(F.layer_norm(x, (16,), w, b)) + x.t().sum(0)";
        QTest::newRow("linear") << "linear"
                                << "F.relu(F.linear(x, w.expand(16, 16), b))";
    }
    void passIrIsDeterministic() {
        QFETCH(QString, name);
        QFETCH(QString, code);
        testing::CompilerFixture f;
        std::string script = "import torch\nimport torch.nn.functional as F\n@torch.compile\n"
                             "def f(x, w, b):\n    return " +
                             code.toStdString() +
                             "\n"
                             "y = f(torch.randn(16, 16), torch.ones(16), torch.zeros(16))\n";
        QCOMPARE(f.run(script), std::string());
        std::string text = "# decompose\n" + unquote(passIr(f.sink, "decompose")) +
                           "# lower_to_loops\n" + unquote(passIr(f.sink, "lower_to_loops")) +
                           "# fuse_kernels\n" + unquote(passIr(f.sink, "fuse_kernels")) +
                           "# plan_memory\n" + unquote(passIr(f.sink, "plan_memory"));
        compareGolden(qPrintable(name + ".txt"), text);
    }

    void diagramsAreRecordedAsDot() {
        testing::CompilerFixture f;
        QCOMPARE(
            f.run(
                "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
                "class MLP(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                "        self.fc1 = nn.Linear(16, 64)\n        self.act = nn.GELU()\n"
                "        self.fc2 = nn.Linear(64, 16)\n"
                "    def forward(self, x):\n"
                "        return F.layer_norm(self.fc2(self.act(self.fc1(x))) + x, (16,))\n"
                "m = torch.compile(MLP())\nwith torch.no_grad():\n    y = m(torch.randn(8, 16))\n"),
            std::string());
        QCOMPARE(f.sink.diagrams.size(), size_t(2));
        QCOMPARE(f.sink.diagrams[0].kind, std::string("pre_fusion"));
        QCOMPARE(f.sink.diagrams[1].kind, std::string("post_fusion"));
        QCOMPARE(f.sink.diagrams[1].compileId, std::string("0/0"));
        compareGolden("mlp_post_fusion.dot", f.sink.diagrams[1].dot);
        compareGolden("mlp_pre_fusion.dot", f.sink.diagrams[0].dot);
    }

    void debugTraceWritesTheReferenceLayout() {
        QTemporaryDir dir;
        support::setDebugSandboxRoot(dir.path().toStdString());
        testing::CompilerFixture f;
        std::string script =
            "import torch\nimport torch._dynamo\n"
            "torch._dynamo.config.debug_dir_root = '" +
            dir.path().toStdString() +
            "'\n@torch.compile(options={'trace.enabled': True, 'trace.graph_diagram': True})\n"
            "def f(x):\n    return torch.softmax(x.sin(), -1)\ny = f(torch.randn(4, 8))\n";
        QCOMPARE(f.run(script), std::string());
        QDir runs(dir.path());
        QStringList run = runs.entryList({"run_*"}, QDir::Dirs);
        QCOMPARE(run.size(), 1);
        QVERIFY(QFile::exists(dir.path() + "/" + run[0] + "/torchdynamo/debug.log"));
        QDir graphs(dir.path() + "/" + run[0] + "/torchinductor");
        QStringList folders = graphs.entryList({"model__0_inference_*"}, QDir::Dirs);
        QCOMPARE(folders.size(), 1);
        for (const char* file :
             {"fx_graph_readable.py", "fx_graph_runnable.py", "fx_graph_transformed.py",
              "ir_pre_fusion.txt", "ir_post_fusion.txt", "output_code.py"}) {
            QFile text(graphs.filePath(folders[0] + "/" + file));
            QVERIFY2(text.open(QIODevice::ReadOnly) && text.size() > 0, file);
        }
        QFile svg(graphs.filePath(folders[0] + "/graph_diagram.svg"));
        if (QFile::exists(graphs.filePath(folders[0] + "/graph_diagram.dot")))
            QSKIP("this build draws no SVG (Graphviz not linked)");
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QByteArray content = svg.readAll();
        QVERIFY(content.contains("<svg"));
        QVERIFY(content.contains("kiln_red_fused_sin_softmax_0"));
        QVERIFY2(f.sink.err.find("model__0_inference_0 debug trace: ") != std::string::npos,
                 f.sink.err.c_str());
        // The repro script runs in Kiln and reproduces the graph.
        QFile repro(graphs.filePath(folders[0] + "/fx_graph_runnable.py"));
        QVERIFY(repro.open(QIODevice::ReadOnly));
        testing::CompilerFixture again("fx_graph_runnable.py");
        QCOMPARE(again.run(repro.readAll().toStdString()), std::string());
        QVERIFY2(again.sink.out.find("max abs difference: ") != std::string::npos,
                 again.sink.out.c_str());
    }

    void debugTracesStayInsideTheDirectoryTheHostChose() {
        QTemporaryDir allowed;
        QTemporaryDir elsewhere;
        support::setDebugSandboxRoot(allowed.path().toStdString());
        const std::string outside = elsewhere.path().toStdString();
        const std::string escape = allowed.path().toStdString() + "/../" +
                                   QFileInfo(elsewhere.path()).fileName().toStdString();
        QDir(allowed.path()).mkdir("inside");
        QFile::link(elsewhere.path(), allowed.path() + "/link");
        for (const std::string& setting :
             {"torch._dynamo.config.debug_dir_root = '" + outside + "'",
              "torch._dynamo.config.debug_dir_root = '" + escape + "'",
              "torch._dynamo.config.debug_dir_root = '" + allowed.path().toStdString() + "/link'",
              "torch._inductor.config.trace.debug_dir = '" + outside + "'"}) {
            testing::CompilerFixture f;
            QCOMPARE(f.run("import torch\nimport torch._dynamo\nimport torch._inductor.config\n" +
                           setting +
                           "\n@torch.compile(options={'trace.enabled': True})\n"
                           "def f(x):\n    return x.sin() + 1\nprint(f(torch.ones(3)))\n"),
                     std::string());
            QVERIFY2(f.sink.out.find("tensor([1.8415, 1.8415, 1.8415])") != std::string::npos,
                     f.sink.out.c_str());
            QVERIFY2(f.sink.err.find("is outside the directory this run may write debug traces "
                                     "to") != std::string::npos,
                     f.sink.err.c_str());
            QVERIFY2(QDir(elsewhere.path()).isEmpty(), setting.c_str());
        }
        // Inside the chosen directory the same setting works.
        testing::CompilerFixture f;
        QCOMPARE(f.run("import torch\nimport torch._dynamo\n"
                       "torch._dynamo.config.debug_dir_root = '" +
                       allowed.path().toStdString() +
                       "/inside'\n@torch.compile(options={'trace.enabled': True})\n"
                       "def f(x):\n    return x.sin() + 1\ny = f(torch.ones(3))\n"),
                 std::string());
        QCOMPARE(QDir(allowed.path() + "/inside").entryList({"run_*"}, QDir::Dirs).size(), 1);
    }

    void inPlaceOpsOnIntermediatesAreFunctionalized() {
        // `y.add_(1)` and `out += x` on values the graph made compile as their out-of-place
        // ops (later reads see the result); a write to a tensor a view was taken of runs the
        // graph through the eager kernels and says why. (Writes to graph inputs compile too:
        // tst_graph_mutations.)
        testing::CompilerFixture f;
        QCOMPARE(f.run("import torch\n"
                       "@torch.compile\ndef f(x):\n    y = x * 2\n    y.add_(1)\n"
                       "    out = y.exp()\n    out += x\n    return out * y\n"
                       "x = torch.randn(5)\nr = f(x)\ny = x * 2 + 1\n"
                       "assert torch.allclose(r, (y.exp() + x) * y), r\n"),
                 std::string());
        QVERIFY(!f.sink.kernels.empty());

        testing::CompilerFixture g;
        QCOMPARE(g.run("import torch\nimport torch._logging\nimport logging\n"
                       "torch._logging.set_logs(inductor=logging.INFO)\n"
                       "@torch.compile\ndef h(x):\n    y = x * 2\n    v = y[0]\n"
                       "    y += 1\n    return v * 1\n"
                       "assert h(torch.ones(3)).tolist() == 3.0\n"),
                 std::string());
        QVERIFY(g.sink.kernels.empty());
        QVERIFY2(g.sink.err.find("runs this graph through the eager kernels: the graph mutates") !=
                     std::string::npos,
                 g.sink.err.c_str());
    }

    void launchesAreRecordedPerKernel() {
        testing::CompilerFixture f;
        QCOMPARE(f.run("import torch\n@torch.compile\ndef f(x):\n    return (x.sin() + 1).sum(1)\n"
                       "x = torch.randn(64, 64)\nfor i in range(3):\n    f(x)\n"),
                 std::string());
        QCOMPARE(f.sink.kernels.size(), size_t(1));
        QCOMPARE(f.sink.launches.size(), size_t(3));
        for (const KernelLaunchEvent& l : f.sink.launches) {
            QCOMPARE(l.kernelId, f.sink.kernels[0].kernelId);
            QVERIFY(l.startNs > 0 && l.endNs >= l.startNs);
            QCOMPARE(l.device, std::string("cpu"));
        }
    }

    void recompiledKernelComesFromTheCache() {
        testing::CompilerFixture f;
        QCOMPARE(f.run("import torch\ndef f(x):\n    return x.exp() * 3\n"
                       "torch.compile(f)(torch.randn(10))\ntorch._dynamo.reset()\n"
                       "torch.compile(f)(torch.randn(10))\n"),
                 std::string());
        QCOMPARE(f.sink.kernels.size(), size_t(2));
        std::string second = unquote(f.sink.passes.back().detailJson);
        QVERIFY2(second.find("cache hits: 1 in memory") != std::string::npos, second.c_str());
    }
};

QTEST_GUILESS_MAIN(CompilerTest)
#include "tst_compiler.moc"
