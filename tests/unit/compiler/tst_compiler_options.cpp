// SPDX-License-Identifier: MIT
// Inductor options and what each changes: size_asserts, triton.cudagraphs on the CPU,
// max_autotune / max_autotune_pointwise with coordinate_descent_tuning, debug.
#include "compiler_fixture.h"

#include <QtTest>
#include <algorithm>

using namespace kiln;

class CompilerOptionsTest : public QObject {
    Q_OBJECT

private slots:
    void sizeAssertsCheckInputsBeforeTheKernels() {
        for (bool asserts : {true, false}) {
            testing::CompilerFixture f;
            QCOMPARE(f.run(std::string("import torch\nf = torch.compile(lambda x: x.sin() * 2, ") +
                           "options={'size_asserts': " + (asserts ? "True" : "False") +
                           "})\n"
                           "y = f(torch.randn(4, 8))\n"),
                     std::string());
            std::string code = f.sink.passes.back().detailJson;
            QCOMPARE(code.find("assert_size_stride(arg0_1, (4, 8), (8, 1))") != std::string::npos,
                     asserts);
        }
    }

    void nonContiguousDynamicInputsReadTheirStridesAtRunTime() {
        testing::CompilerFixture f;
        QCOMPARE(f.run("import torch\ndef fn(x):\n    return x.sin() * 2\n"
                       "f = torch.compile(fn, dynamic=True)\n"
                       "for n in (4, 6, 9):\n    y = torch.randn(8, 2 * n)[:, ::2]\n"
                       "    assert torch.allclose(f(y), fn(y))\n"
                       "    z = torch.randn(n, 5).t()\n    assert torch.allclose(f(z), fn(z))\n"),
                 std::string());
        QVERIFY(!f.sink.kernels.empty());
    }

    void cudagraphsOnTheCpuIsASkippedPerfHint() {
        testing::CompilerFixture f;
        QCOMPARE(
            f.run("import torch\nimport torch._logging\ntorch._logging.set_logs(perf_hints=True)\n"
                  "f = torch.compile(lambda x: x.cos() + 1, mode='reduce-overhead')\n"
                  "y = f(torch.randn(16))\n"),
            std::string());
        QVERIFY2(f.sink.err.find("skipping cudagraphs due to cpu device") != std::string::npos,
                 f.sink.err.c_str());
        bool recorded =
            std::any_of(f.sink.otherTimeline.begin(), f.sink.otherTimeline.end(),
                        [](const TimelineEvent& e) { return e.category == "perf_hint"; });
        QVERIFY(recorded);
        QCOMPARE(f.sink.kernels.size(), size_t(1)); // still compiled, just not captured
    }

    void defaultModeDoesNotTune() {
        testing::CompilerFixture f;
        QCOMPARE(
            f.run(
                "import torch\ny = torch.compile(lambda x: x.exp().sum(1))(torch.randn(64, 64))\n"),
            std::string());
        QVERIFY(f.sink.choices.empty());
    }

    void maxAutotunePointwiseMeasuresCandidates() {
        testing::CompilerFixture f;
        QCOMPARE(f.run("import torch\nf = torch.compile(lambda x: x.exp().sum(1), "
                       "options={'max_autotune_pointwise': True})\nx = torch.randn(256, 256)\n"
                       "assert torch.allclose(f(x), x.exp().sum(1), rtol=1e-5)\n"),
                 std::string());
        QCOMPARE(f.sink.kernels.size(), size_t(1));
        const auto& choices = f.sink.choices;
        QVERIFY(choices.size() >= 7);
        QCOMPARE(
            std::count_if(choices.begin(), choices.end(), [](const auto& c) { return c.chosen; }),
            1l);
        auto chosen =
            std::find_if(choices.begin(), choices.end(), [](const auto& c) { return c.chosen; });
        for (const AutotuneChoiceEvent& c : choices) {
            QCOMPARE(c.kernelId, f.sink.kernels[0].kernelId);
            QVERIFY(c.timeNs > 0 && chosen->timeNs <= c.timeNs);
        }
        size_t progress =
            std::count_if(f.sink.otherTimeline.begin(), f.sink.otherTimeline.end(),
                          [](const TimelineEvent& e) { return e.category == "autotune"; });
        QCOMPARE(progress, choices.size());
    }

    void coordinateDescentWalksFromTheWinner() {
        testing::CompilerFixture f;
        QCOMPARE(f.run("import torch\nf = torch.compile(lambda x: (x * 2).sin(), "
                       "options={'max_autotune': True, "
                       "'coordinate_descent_tuning': True})\ny = f(torch.randn(512, 64))\n"),
                 std::string());
        // It starts from three candidates and always has an untried neighbour of the winner.
        QVERIFY2(f.sink.choices.size() > 3, std::to_string(f.sink.choices.size()).c_str());
    }

    void templatesFuseTheEpilogueWhenChosen_data() {
        QTest::addColumn<QString>("options");
        QTest::addColumn<QStringList>("kernels");
        QTest::newRow("templates only")
            << "'max_autotune': True, 'max_autotune_gemm_backends': 'TRITON'"
            << QStringList{"kiln_tem_fused_gelu_linear_0", "kiln_tem_fused_linear_1"};
        QTest::newRow("no epilogue fusion")
            << "'max_autotune': True, 'max_autotune_gemm_backends': 'TRITON', 'epilogue_fusion': "
               "False"
            << QStringList{"kiln_tem_fused_linear_0", "kiln_poi_fused_gelu_0",
                           "kiln_tem_fused_linear_1"};
        QTest::newRow("blas only")
            << "'max_autotune_gemm': True, 'max_autotune_gemm_backends': 'ATEN'"
            << QStringList{"extern_addmm", "kiln_poi_fused_gelu_0", "extern_addmm"};
        QTest::newRow("default mode")
            << "" << QStringList{"extern_addmm", "kiln_poi_fused_gelu_0", "extern_addmm"};
    }
    void templatesFuseTheEpilogueWhenChosen() {
        QFETCH(QString, options);
        QFETCH(QStringList, kernels);
        testing::CompilerFixture f;
        QCOMPARE(
            f.run("import torch\nimport torch.nn as nn\n"
                  "class MLP(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                  "        self.fc1 = nn.Linear(64, 256)\n        self.act = nn.GELU()\n"
                  "        self.fc2 = nn.Linear(256, 64)\n"
                  "    def forward(self, x):\n        return self.fc2(self.act(self.fc1(x)))\n"
                  "torch.set_grad_enabled(False)\nm = MLP()\nc = torch.compile(m, options={" +
                  options.toStdString() +
                  "})\n"
                  "for rows in (32, 32):\n    x = torch.randn(rows, 64)\n"
                  "    assert torch.allclose(c(x), m(x), rtol=1e-4, atol=1e-5)\n"),
            std::string());
        QStringList got;
        for (const KernelEvent& k : f.sink.kernels)
            got << QString::fromStdString(k.name);
        QCOMPARE(got, kernels);
        bool tuned = options.contains("max_autotune");
        QCOMPARE(f.sink.choices.empty(), !tuned);
        if (tuned) {
            // One chosen candidate per product, and per pointwise kernel when max_autotune also
            // tunes those; the template's kind is in the trace.
            long pointwise =
                !options.contains("'max_autotune': True")
                    ? 0
                    : std::count_if(f.sink.kernels.begin(), f.sink.kernels.end(),
                                    [](const auto& k) { return k.kind == "pointwise"; });
            QCOMPARE(std::count_if(f.sink.choices.begin(), f.sink.choices.end(),
                                   [](const auto& c) { return c.chosen; }),
                     2 + pointwise);
            if (got[0].startsWith("kiln_tem"))
                QCOMPARE(f.sink.kernels[0].kind, std::string("template"));
        }
    }

    void shapePaddingLetsTemplatesCoverOddSizes() {
        for (bool padding : {true, false}) {
            testing::CompilerFixture f;
            QCOMPARE(
                f.run(std::string("import torch\nimport torch.nn.functional as F\n"
                                  "def fn(x, w, b):\n    return F.gelu(F.linear(x, w, b))\n"
                                  "c = torch.compile(fn, options={'max_autotune_gemm': True, "
                                  "'max_autotune_gemm_backends': 'TRITON', 'shape_padding': ") +
                      (padding ? "True" : "False") +
                      "})\nx, w, b = torch.randn(30, 60), torch.randn(250, 60), torch.randn(250)\n"
                      "assert torch.allclose(c(x, w, b), fn(x, w, b), rtol=1e-4, atol=1e-5)\n"),
                std::string());
            QStringList got;
            for (const KernelEvent& k : f.sink.kernels)
                got << QString::fromStdString(k.name);
            if (padding) {
                QCOMPARE(got, QStringList{"kiln_tem_fused_gelu_linear_0"});
                QVERIFY(
                    QString::fromStdString(f.sink.choices.at(0).candidate).contains("padded to"));
            } else {
                // No tile divides 30x250 and BLAS is not allowed: the product stays a BLAS call.
                QCOMPARE(got, (QStringList{"extern_addmm", "kiln_poi_fused_gelu_0"}));
                QVERIFY(f.sink.choices.empty());
            }
        }
    }

    void splitReductionsParallelizeFullReductions() {
        for (bool split : {true, false}) {
            testing::CompilerFixture f;
            QCOMPARE(
                f.run(std::string("import torch\nf = torch.compile(lambda x: x.sin().sum(), "
                                  "options={'split_reductions': ") +
                      (split ? "True" : "False") +
                      "})\nx = torch.randn(100003)\n"
                      "assert torch.allclose(f(x).double(), x.double().sin().sum(), rtol=1e-4)\n"),
                std::string());
            QStringList got;
            for (const KernelEvent& k : f.sink.kernels)
                got << QString::fromStdString(k.name);
            if (split)
                QCOMPARE(got,
                         (QStringList{"kiln_red_fused_sin_sum_0", "kiln_red_fused_sin_sum_1"}));
            else
                QCOMPARE(got, QStringList{"kiln_red_fused_sin_sum_0"});
        }
    }

    void debugLogsEveryLaunch() {
        testing::CompilerFixture f;
        QCOMPARE(f.run("import torch\nimport torch._logging\nimport logging\n"
                       "torch._logging.set_logs(inductor=logging.DEBUG)\n"
                       "f = torch.compile(lambda x: x.cos() + 1, options={'debug': True})\n"
                       "y = f(torch.randn(16))\ny = f(torch.randn(16))\n"),
                 std::string());
        std::string needle = f.sink.kernels.at(0).name + " ran in ";
        size_t first = f.sink.err.find(needle);
        QVERIFY2(first != std::string::npos, f.sink.err.c_str());
        QVERIFY(f.sink.err.find(needle, first + 1) != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(CompilerOptionsTest)
#include "tst_compiler_options.moc"
