// SPDX-License-Identifier: MIT
// The capture engine as a user sees it where PyTorch 2.3 and the installed PyTorch differ (so
// no golden recording can check it): compile ids, statuses, frames and resume points, guard
// and recompile texts, graph break events, Unsupported messages, the cache limit, in-place
// updates of inputs, and the TORCH_LOGS records.
#include "capture/compile_api.h"
#include "lang/parser.h"
#include "snippet_runner.h"
#include "torchapi/config_modules.h"
#include "torchapi/install.h"

#include <QtTest>
#include <memory>

using namespace kiln;
using namespace kiln::lang;

namespace {

/// Records everything the engine reports.
class RecordingSink final : public EventSink {
public:
    void output(OutputStream stream, std::string_view text) override {
        (stream == OutputStream::Stdout ? out : stream == OutputStream::Log ? log : err) += text;
    }
    void frame(const FrameEvent& e) override { frames.push_back(e); }
    void compile(const CompileEvent& e) override {
        if (!e.status.empty()) compiles.push_back(e);
    }
    void guard(const GuardEvent& e) override { guards.push_back(e); }
    void recompile(const RecompileEvent& e) override { recompiles.push_back(e); }
    void graphBreak(const GraphBreakEvent& e) override { breaks.push_back(e); }
    void graph(const GraphEvent& e) override { graphs.push_back(e); }

    std::string out, err, log;
    std::vector<FrameEvent> frames;
    std::vector<CompileEvent> compiles;
    std::vector<GuardEvent> guards;
    std::vector<RecompileEvent> recompiles;
    std::vector<GraphBreakEvent> breaks;
    std::vector<GraphEvent> graphs;
};

LogStamp fixedStamp(int64_t) {
    return LogStamp{0, 0, 1, 1};
}

/// An interpreter with torch and the capture engine, running a script from "test.py".
class Session {
public:
    explicit Session(const char* torchLogs = "")
        : logs(TorchLogs::parse(torchLogs).value())
        , logger(sink, logs, fixedStamp) {
        torchapi::installTorch(interp);
        engine = std::make_unique<capture::CaptureEngine>(interp, config, sink, logger);
        capture::installCompileApi(interp, *engine);
    }

    std::string run(const std::string& code) { return m_snippets.run(code); }

    RecordingSink sink;
    TorchLogs logs;
    Logger logger;
    Interpreter interp{sink};
    torchapi::ScriptCompileConfig config{interp};
    std::unique_ptr<capture::CaptureEngine> engine;

private:
    kiln::testing::SnippetRunner m_snippets{interp, "import torch\n", "test.py"};
};

QStringList statuses(const RecordingSink& sink) {
    QStringList out;
    for (const CompileEvent& c : sink.compiles)
        out << QString::fromStdString(c.compileId + " " + c.status);
    return out;
}

} // namespace

class CaptureTest : public QObject {
    Q_OBJECT

private slots:
    void breakMakesAResumeFrame() {
        Session s;
        QCOMPARE(s.run("def f(x):\n"           // line 2
                       "    a = x.sin() + 1\n" // 3
                       "    print('mid')\n"    // 4
                       "    return a * 2\n"    // 5
                       "cf = torch.compile(f, backend='eager')\n"
                       "x = torch.ones(3)\n"
                       "r1 = cf(x)\n"
                       "r2 = cf(x)\n"
                       "assert torch.allclose(r1, (x.sin() + 1) * 2)\n"
                       "assert torch.allclose(r2, r1)\n"),
                 std::string());
        QCOMPARE(s.sink.out, std::string("mid\nmid\n"));
        QCOMPARE(statuses(s.sink), QStringList({"0/0 break", "1/0 ok"}));
        QCOMPARE(s.sink.frames.size(), size_t(2));
        QCOMPARE(s.sink.frames[1].function, std::string("torch_dynamo_resume_in_f_at_4"));
        QCOMPARE(s.sink.frames[1].kind, std::string("resume"));
        QCOMPARE(s.sink.frames[1].parentFrameId, int64_t(0));
        QCOMPARE(s.sink.breaks.size(), size_t(1));
        const GraphBreakEvent& b = s.sink.breaks[0];
        QCOMPARE(b.line, 4);
        QCOMPARE(b.reasonKind, std::string("side_effect"));
        QCOMPARE(b.reason, std::string("builtin: print [<class "
                                       "'torch._dynamo.variables.constant.ConstantVariable'>] "
                                       "False"));
        QVERIFY(b.userStack.find("File \"test.py\", line 4, in f") != std::string::npos);
        QCOMPARE(s.sink.graphs.size(), size_t(2));
        QCOMPARE(s.sink.graphs[0].opCount, 2); // sin (a method) and add
    }

    void localsSurviveTheBreak() {
        Session s;
        QCOMPARE(s.run("def f(x, n):\n"
                       "    a = x * n\n"
                       "    k = n + 1\n"
                       "    items = [a, k]\n"
                       "    print(k)\n"
                       "    return items[0] + items[1], k\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "for i in range(3):\n"
                       "    r, k = cf(torch.ones(2), 3)\n"
                       "    assert k == 4 and torch.equal(r, torch.full((2,), 7.0)), r\n"),
                 std::string());
        QCOMPARE(s.sink.out, std::string("4\n4\n4\n"));
        QCOMPARE(statuses(s.sink), QStringList({"0/0 break", "1/0 ok"}));
    }

    void inPlaceUpdatesHappenOnce() {
        Session s;
        QCOMPARE(s.run("def f(x):\n"
                       "    x.add_(1)\n"
                       "    return x * 2\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "x = torch.zeros(3)\n"
                       "r = cf(x)\n"
                       "assert torch.equal(x, torch.ones(3)), x\n"
                       "assert torch.equal(r, torch.full((3,), 2.0)), r\n"
                       "cf(x)\n"
                       "assert torch.equal(x, torch.full((3,), 2.0)), x\n"),
                 std::string());
    }

    void recompileReasonsInPyTorch23Words() {
        Session s("recompiles");
        QCOMPARE(s.run("def f(x, n):\n"
                       "    return x * n\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "cf(torch.ones(4), 2)\n"
                       "cf(torch.ones(8), 2)\n"
                       "cf(torch.ones(8), 3)\n"),
                 std::string());
        QCOMPARE(statuses(s.sink), QStringList({"0/0 ok", "0/1 ok", "0/2 ok"}));
        QVERIFY(s.sink.log.find("Recompiling function f in test.py:2\n") != std::string::npos);
        QVERIFY2(s.sink.log.find("- tensor 'L['x']' size mismatch at index 0. expected 4, "
                                 "actual 8") != std::string::npos,
                 s.sink.log.c_str());
        QVERIFY2(s.sink.log.find("- L['n'] == 2") != std::string::npos, s.sink.log.c_str());
        QVERIFY(!s.sink.recompiles.empty());
        QCOMPARE(s.sink.recompiles[0].compileId, std::string("0/1"));
        QCOMPARE(s.sink.recompiles[0].failedCompileId, std::string("0/0"));
        QCOMPARE(s.sink.recompiles[0].guardSource, std::string("L['x']"));
    }

    void anotherBackendRecompilesAnEqualOneDoesNot() {
        // 2.3 guards every entry with ___check_current_backend: the same function compiled for
        // another backend, or for inductor with another mode, compiles again; an equal backend
        // (the same name, two default inductors) reuses the entry. Kiln reused the first entry
        // whatever the backend, so a counting backend never saw the graph.
        Session s("recompiles");
        QCOMPARE(s.run("def f(x):\n"
                       "    return x.sin() + 1\n"
                       "x = torch.ones(3)\n"
                       "torch.compile(f)(x)\n"
                       "torch.compile(f)(x)\n"
                       "torch.compile(f, mode='max-autotune-no-cudagraphs')(x)\n"
                       "torch.compile(f, backend='eager')(x)\n"
                       "torch.compile(f, backend='eager')(x)\n"
                       "torch.compile(f)(x)\n"),
                 std::string());
        QCOMPARE(statuses(s.sink), QStringList({"0/0 ok", "0/1 ok", "0/2 ok"}));
        QVERIFY2(s.sink.log.find("- ___check_current_backend(") != std::string::npos,
                 s.sink.log.c_str());
        QVERIFY(!s.sink.recompiles.empty());
        QCOMPARE(s.sink.recompiles[0].compileId, std::string("0/1"));
        QVERIFY(s.sink.recompiles[0].reason.find("___check_current_backend(") == 0);
    }

    void aGuardIsPlacedWhereTheFrameReadsItsSource() {
        // Issue 14, finding 9: L['n'] was guarded at the line that reads it for the static entry
        // and at the def for the dynamic one, whose int is made a SymInt at the frame's entry.
        Session s;
        QCOMPARE(s.run("@torch.compile(backend='eager')\n"
                       "def f(x, n):\n"
                       "    y = x * 2\n"
                       "    for i in range(n):\n"
                       "        y = y + 1\n"
                       "    return y\n"
                       "f(torch.ones(4), 3)\n"
                       "f(torch.ones(4), 4)\n"),
                 std::string());
        QStringList placed;
        for (const GuardEvent& g : s.sink.guards)
            if (g.source == "L['n']")
                placed << QString("%1:%2").arg(g.compileId.c_str()).arg(g.userLine);
        QCOMPARE(placed, QStringList({"0/0:5", "0/1:5"}));
    }

    void errorOnRecompile() {
        Session s;
        std::string error = s.run("torch._dynamo.config.error_on_recompile = True\n"
                                  "def f(x):\n"
                                  "    return x + 1\n"
                                  "cf = torch.compile(f, backend='eager')\n"
                                  "cf(torch.ones(2))\n"
                                  "cf(torch.ones(2, dtype=torch.float64))\n");
        QVERIFY2(error.rfind("torch._dynamo.exc.RecompileError: Recompiling function f in "
                             "test.py:3",
                             0) == 0,
                 error.c_str());
        QVERIFY(error.find("- tensor 'L['x']' dtype mismatch. expected Float, actual Double") !=
                std::string::npos);
    }

    void smallIntegerDTypesInGraphsAndGuards() {
        // The trace stores these strings (graph_nodes.dtype, guards.expected): the names
        // PyTorch prints for uint8/int8/int16, and their legacy names in guard failures.
        Session s;
        std::string error = s.run("torch._dynamo.config.error_on_recompile = True\n"
                                  "def f(x):\n"
                                  "    return (x + 1).to(torch.int16)\n"
                                  "cf = torch.compile(f, backend='eager')\n"
                                  "cf(torch.ones(2, 3, dtype=torch.uint8))\n"
                                  "cf(torch.ones(2, 3, dtype=torch.int8))\n");
        QVERIFY2(error.find("- tensor 'L['x']' dtype mismatch. expected Byte, actual Char") !=
                     std::string::npos,
                 error.c_str());
        QCOMPARE(s.sink.graphs.size(), size_t(1));
        const GraphEvent& g = s.sink.graphs[0];
        QVERIFY2(g.readableCode.find("u8[2, 3]") != std::string::npos, g.readableCode.c_str());
        QVERIFY2(g.readableCode.find("i16[2, 3]") != std::string::npos, g.readableCode.c_str());
        QStringList dtypes;
        for (const GraphNodeInfo& n : g.nodes)
            if (!n.dtype.empty()) dtypes << QString::fromStdString(n.dtype);
        QVERIFY2(dtypes.contains("torch.uint8") && dtypes.contains("torch.int16"),
                 qPrintable(dtypes.join(", ")));
        bool guarded = false;
        for (const GuardEvent& e : s.sink.guards)
            guarded |= e.source == "L['x']" && e.expected.find("torch.uint8") != std::string::npos;
        QVERIFY(guarded);
    }

    void automaticDynamicShapes() {
        Session s;
        QCOMPARE(s.run("def f(x):\n"
                       "    return x.sin() * 2\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "cf(torch.ones(4, 3))\n"
                       "cf(torch.ones(8, 3))\n"
                       "cf(torch.ones(16, 3))\n"),
                 std::string());
        QCOMPARE(statuses(s.sink), QStringList({"0/0 ok", "0/1 ok"}));
        QCOMPARE(s.sink.graphs.size(), size_t(2));
        QVERIFY2(s.sink.graphs[1].readableCode.find("f32[s0, 3]") != std::string::npos,
                 s.sink.graphs[1].readableCode.c_str());
        bool bound = false;
        for (const GuardEvent& g : s.sink.guards)
            bound |= g.compileId == "0/1" && g.expression == "2 <= L['x'].size()[0]";
        QVERIFY(bound);
    }

    void fullgraphRaisesUnsupportedWithTheUserStack() {
        Session s;
        std::string error =
            s.run("def f(x):\n"
                  "    y = x + 1\n"
                  "    print('no')\n"
                  "    return y\n"
                  "torch.compile(f, backend='eager', fullgraph=True)(torch.ones(2))\n");
        QVERIFY2(error.rfind("torch._dynamo.exc.Unsupported: builtin: print", 0) == 0 ||
                     error.rfind("Unsupported: builtin: print", 0) == 0,
                 error.c_str());
        QVERIFY(error.find("from user code:\n  File \"test.py\", line 4, in f\n    print('no')") !=
                std::string::npos);
        QVERIFY(s.sink.out.empty()); // nothing ran past the error
        std::string item =
            s.run("def g(x):\n"
                  "    return x * x.sum().item()\n"
                  "torch.compile(g, backend='eager', fullgraph=True)(torch.ones(2))\n");
        QVERIFY2(item.find("Unsupported: Tensor.item") != std::string::npos, item.c_str());
        std::string branch =
            s.run("def h(x):\n"
                  "    if x.sum() > 0:\n"
                  "        return x\n"
                  "    return -x\n"
                  "torch.compile(h, backend='eager', fullgraph=True)(torch.ones(2))\n");
        QVERIFY2(branch.find("UserError: Dynamic control flow is not supported") !=
                     std::string::npos,
                 branch.c_str());
    }

    void cacheLimitWarnsOnceAndRunsEagerly() {
        Session s;
        QCOMPARE(
            s.run("torch._dynamo.config.cache_size_limit = 2\n"
                  "def f(x, n):\n"
                  "    return x + n\n"
                  "cf = torch.compile(f, backend='eager')\n"
                  "for n in (1, 2, 3, 4, 1):\n"
                  "    assert torch.equal(cf(torch.zeros(1), n), torch.full((1,), float(n)))\n"),
            std::string());
        QCOMPARE(statuses(s.sink), QStringList({"0/0 ok", "0/1 ok"}));
        const std::string warning = "torch._dynamo hit config.cache_size_limit (2)\n";
        const size_t at = s.sink.log.find(warning);
        QVERIFY2(at != std::string::npos, s.sink.log.c_str());
        QVERIFY(s.sink.log.find(warning, at + 1) == std::string::npos);
        QVERIFY(s.sink.log.find("   function: 'f' (test.py:3)") != std::string::npos);
    }

    void backendFailures() {
        Session s;
        std::string error =
            s.run("def broken(gm, example_inputs):\n"
                  "    raise ValueError('nope')\n"
                  "torch.compile(lambda x: x + 1, backend=broken)(torch.ones(1))\n");
        QVERIFY2(error.find("BackendCompilerFailed: backend='broken' raised:\nValueError: nope") !=
                     std::string::npos,
                 error.c_str());
        QCOMPARE(s.run("def broken(gm, example_inputs):\n"
                       "    raise ValueError('nope')\n"
                       "torch._dynamo.config.suppress_errors = True\n"
                       "r = torch.compile(lambda x: x + 1, backend=broken)(torch.ones(1))\n"
                       "assert torch.equal(r, torch.full((1,), 2.0))\n"),
                 std::string());
        QVERIFY2(s.sink.log.find("WON'T CONVERT <lambda> test.py line 5") != std::string::npos,
                 s.sink.log.c_str());
        Session fresh;
        QVERIFY(fresh.run("torch.compile(lambda x: x + 1, backend='cudagraphs')(torch.ones(1))")
                    .find("cudagraphs backend needs a CUDA device") != std::string::npos);
    }

    void breakReasonsOfTheTriggers() {
        Session s;
        QCOMPARE(s.run("def f(x):\n"
                       "    a = x + 1\n"
                       "    s = a.sum().item()\n"
                       "    b = a * s\n"
                       "    torch._dynamo.graph_break()\n"
                       "    c = b - 1\n"
                       "    if c.sum() > 0:\n"
                       "        c = c * 2\n"
                       "    return c\n"
                       "torch.compile(f, backend='eager')(torch.ones(2))\n"),
                 std::string());
        QCOMPARE(s.sink.breaks.size(), size_t(3));
        QCOMPARE(s.sink.breaks[0].reason, std::string("Tensor.item"));
        QCOMPARE(s.sink.breaks[0].line, 4);
        QCOMPARE(s.sink.breaks[1].reason,
                 std::string("'skip function graph_break in file _dynamo/decorators.py'"));
        QCOMPARE(s.sink.breaks[2].reason, std::string("generic_jump TensorVariable()"));
        QCOMPARE(s.sink.breaks[2].reasonKind, std::string("data_dependent_branch"));
        QCOMPARE(statuses(s.sink), QStringList({"0/0 break", "1/0 break", "2/0 break", "3/0 ok"}));
    }

    void nodeNamesFollowFx() {
        Session s;
        QCOMPARE(s.run("def f(x):\n"
                       "    a = torch.sin(x) + 1\n"
                       "    b = a + x\n"
                       "    return a.sum() + b.sum(), abs(b)\n"
                       "torch.compile(f, backend='eager')(torch.ones(2))\n"),
                 std::string());
        QCOMPARE(s.sink.graphs.size(), size_t(1));
        QStringList names;
        for (const GraphNodeInfo& n : s.sink.graphs[0].nodes)
            names << QString::fromStdString(n.name);
        // 2.3 names nodes after their targets, then after the local a tensor is stored to
        // (STORE_FAST renames it; `add` and `add_1` stay taken); names that shadow builtins
        // get a suffix.
        QCOMPARE(names, QStringList({"l_x_", "sin", "a", "b", "sum_1", "sum_2", "add_2", "abs_1",
                                     "output"}));
    }

    void aSequentialsChildrenAreCalledAsModules() {
        // 2.3 unrolls a Sequential and calls each torch.nn child as a module (their weights
        // were inlined as constants, so rebinding one after the compile went unseen).
        Session s;
        QCOMPARE(s.run("import torch.nn as nn\n"
                       "class M(nn.Module):\n"
                       "    def __init__(self):\n"
                       "        super().__init__()\n"
                       "        self.lin = nn.Linear(2, 2)\n"
                       "        self.seq = nn.Sequential(nn.Linear(2, 2), nn.Identity())\n"
                       "    def forward(self, x):\n"
                       "        return self.seq(self.lin(x))\n"
                       "torch.compile(M(), backend='eager')(torch.ones(1, 2))\n"),
                 std::string());
        QCOMPARE(s.sink.graphs.size(), size_t(1));
        QStringList nodes;
        for (const GraphNodeInfo& n : s.sink.graphs[0].nodes)
            nodes << QString::fromStdString(n.op + " " + n.target);
        QCOMPARE(nodes, QStringList({"placeholder L_x_", "call_module L__self___lin",
                                     "call_module L__self___seq_0", "call_module L__self___seq_1",
                                     "output output"}));
    }

    void aHookedTorchNnModuleStillCompilesItsForward() {
        // The hooks of a compiled torch.nn module run as frames of their own; its forward,
        // library code, compiles as the wrapped layer's forward (it ran eagerly before).
        Session s;
        QCOMPARE(s.run("import torch.nn as nn\n"
                       "seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())\n"
                       "seq.register_forward_pre_hook(lambda m, args: (args[0] + 1,))\n"
                       "seq.register_forward_hook(lambda m, args, out: out * 2)\n"
                       "torch.compile(seq, backend='eager')(torch.ones(1, 2))\n"),
                 std::string());
        QStringList modules;
        for (const GraphEvent& g : s.sink.graphs)
            for (const GraphNodeInfo& n : g.nodes)
                if (n.op == "call_module") modules << QString::fromStdString(n.target);
        QCOMPARE(s.sink.graphs.size(), size_t(3));
        QCOMPARE(modules, QStringList({"L__self___0", "L__self___1"}));
    }

    void enumMembersAreGuardedByIdentityAndTheirMethodsAreNotFrames() {
        // Each member is its own entry (a TYPE_MATCH reused TRAIN's graph for EVAL); enum.py's
        // `value` property, run by the output and the guards, and the members' __repr__ in the
        // recompile reason are never frames to compile, as Dynamo skips the stdlib.
        Session s;
        QCOMPARE(s.run("from enum import Enum\n"
                       "class Mode(str, Enum):\n"
                       "    TRAIN = 'train'\n"
                       "    EVAL = 'eval'\n"
                       "@torch.compile(backend='eager')\n"
                       "def f(x, mode):\n"
                       "    y = x + 1 if mode == Mode.TRAIN else x * 3\n"
                       "    return y, mode.value\n"
                       "print([f(torch.ones(1), m)[0].item() for m in (Mode.TRAIN, Mode.EVAL)])\n"),
                 std::string());
        QCOMPARE(s.sink.out, std::string("[2.0, 3.0]\n"));
        QStringList frames;
        for (const FrameEvent& frame : s.sink.frames)
            frames << QString::fromStdString(frame.function);
        QCOMPARE(frames, QStringList({"f"}));
        QCOMPARE(s.sink.graphs.size(), size_t(2));
        QVERIFY(std::any_of(s.sink.guards.begin(), s.sink.guards.end(), [](const GuardEvent& g) {
            return g.kind == "ID_MATCH" && g.source == "L['mode']";
        }));
    }

    void nodesAreNamedAfterTheLocalsTheyAreStoredTo() {
        // As PyTorch 2.3.1 names them (recorded): an input stored to `y` before any op read it
        // is named `y` when it becomes a placeholder; `t` in the comprehension renames the
        // view, then `w` (t_1); each `p = p * 2` takes the next p_N; a global module is called
        // by its name, `head`.
        Session s;
        QCOMPARE(s.run("head = torch.nn.Linear(4, 4)\n"
                       "def f(x, w):\n"
                       "    y = x\n"
                       "    y = y.view(2, -1)\n"
                       "    outs = [t.sin() for t in (y, w)]\n"
                       "    p, q = outs\n"
                       "    for i in range(2):\n"
                       "        p = p * 2\n"
                       "    return head(p + q)\n"
                       "torch.compile(f, backend='eager')(torch.ones(2, 4), torch.ones(2, 4))\n"),
                 std::string());
        QCOMPARE(s.sink.graphs.size(), size_t(1));
        QStringList names;
        for (const GraphNodeInfo& n : s.sink.graphs[0].nodes)
            names << QString::fromStdString(n.name);
        QCOMPARE(names,
                 QStringList({"y", "t_1", "t", "p", "q", "p_1", "p_2", "add", "head", "output"}));
    }

    void aSliceBySymbolicIntHasTheSizeOfEachCall() {
        // cache[:pos + 1] of a static tensor: its size is read from the run's slice (the
        // example's size was baked in, so pos 7 saw 7 elements).
        Session s;
        QCOMPARE(s.run("cache = torch.arange(16.0)\n"
                       "@torch.compile(backend='eager')\n"
                       "def f(x, pos):\n"
                       "    return x * cache[: pos + 1].shape[0]\n"
                       "print([f(torch.ones(1), p).item() for p in (5, 6, 7, 20)])\n"),
                 std::string());
        QCOMPARE(s.sink.out, std::string("[6.0, 7.0, 8.0, 16.0]\n"));
        QCOMPARE(s.sink.graphs.size(), size_t(2)); // static at 5, dynamic from 6 on
    }

    void tensorsMadeOutsideTheGraphAreNotCachedAsConstants() {
        Session s;
        QCOMPARE(s.run("def f(x):\n"
                       "    return x + 1, torch.Tensor([1.0])\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "a = cf(torch.zeros(1))\n"
                       "b = cf(torch.ones(1))\n"
                       "assert a[1] is not b[1]\n"
                       "assert torch.equal(b[0], torch.full((1,), 2.0)), b\n"),
                 std::string());
        QCOMPARE(s.sink.compiles.size(), size_t(1));
        QCOMPARE(s.sink.compiles[0].failure,
                 std::string("cannot rebuild a tensor the trace computed outside the graph"));
    }

    void errorsAfterAMidStatementBreakPropagate() {
        Session s;
        QCOMPARE(s.run("def f(x):\n"
                       "    x.add_(1)\n"
                       "    return x * x.sum().item() + undefined_name\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "x = torch.zeros(2)\n"
                       "for i in range(2):\n"
                       "    try:\n"
                       "        cf(x)\n"
                       "    except NameError as e:\n"
                       "        print(e)\n"
                       "assert torch.equal(x, torch.full((2,), 2.0)), x\n"),
                 std::string());
        QCOMPARE(s.sink.out, std::string("name 'undefined_name' is not defined\n"
                                         "name 'undefined_name' is not defined\n"));
    }

    void midStatementResumeHasItsStackInputs() {
        Session s("graph_code");
        QCOMPARE(s.run("def f(x):\n"
                       "    a = x + 2\n"
                       "    return torch.relu(a) + a.sum().item() * torch.sin(a)\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "for n in (3, 3):\n"
                       "    x = torch.ones(n)\n"
                       "    a = x + 2\n"
                       "    assert torch.allclose(cf(x), torch.relu(a) + a.sum().item() * "
                       "torch.sin(a))\n"),
                 std::string());
        QCOMPARE(statuses(s.sink), QStringList({"0/0 break", "1/0 ok"}));
        QCOMPARE(s.sink.frames[1].function, std::string("torch_dynamo_resume_in_f_at_4"));
        // The resume graph reads the finished .item() value as a constant (guarded, so a new
        // value recompiles) and the relu computed before the break as a stack input.
        QVERIFY2(s.sink.graphs[1].readableCode.find("L_stack1_ : \"f32[3]\"") != std::string::npos,
                 s.sink.graphs[1].readableCode.c_str());
    }

    void tensorPropertiesAreGetattrNodes() {
        Session s;
        QCOMPARE(s.run("def f(x):\n"
                       "    return x.T @ x\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "x = torch.randn(3, 2)\n"
                       "assert torch.allclose(cf(x), x.T @ x)\n"
                       "x = torch.randn(3, 2)\n"
                       "assert torch.allclose(cf(x), x.T @ x)\n"),
                 std::string());
        QVERIFY2(s.sink.graphs[0].readableCode.find("getattr_1: \"f32[2, 3]\" = l_x_.T") !=
                     std::string::npos,
                 s.sink.graphs[0].readableCode.c_str());
    }

    void aliasedInputsAreGuarded() {
        Session s;
        QCOMPARE(s.run("def f(pair, items):\n"
                       "    return pair[0] + 1, items[0] * 2\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "x = torch.ones(2)\n"
                       "cf((x, x), [x])\n"
                       "a, b = cf((x, x), [torch.zeros(2)])\n"
                       "assert torch.equal(b, torch.zeros(2)), b\n"
                       "cf((x, x), [x])\n"),
                 std::string());
        QCOMPARE(statuses(s.sink), QStringList({"0/0 ok", "0/1 ok"}));
        bool aliasGuard = false;
        for (const GuardEvent& g : s.sink.guards)
            aliasGuard |=
                g.kind == "DUPLICATE_INPUT" && g.expression == "L['items'][0] is L['pair'][0]";
        QVERIFY(aliasGuard);
    }

    void everyDynamicDimIsGuarded() {
        Session s;
        QCOMPARE(s.run("cf = torch.compile(lambda x: x * 2, backend='eager', dynamic=True)\n"
                       "cf(torch.ones(3, 4))\n"),
                 std::string());
        QStringList bounds;
        for (const GuardEvent& g : s.sink.guards)
            if (g.kind == "SHAPE_ENV") bounds << QString::fromStdString(g.expression);
        QCOMPARE(bounds, QStringList({"2 <= L['x'].size()[0]", "2 <= L['x'].size()[1]"}));
    }

    void gradModeIsGlobalState() {
        Session s("recompiles");
        QCOMPARE(s.run("def f(x):\n"
                       "    return x * 2\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "x = torch.ones(2, requires_grad=True)\n"
                       "assert cf(x).requires_grad\n"
                       "with torch.no_grad():\n"
                       "    assert not cf(x).requires_grad\n"
                       "assert cf(x).requires_grad\n"),
                 std::string());
        QCOMPARE(statuses(s.sink), QStringList({"0/0 ok", "0/1 ok"}));
        QVERIFY2(s.sink.log.find("- ___check_global_state()") != std::string::npos,
                 s.sink.log.c_str());
    }

    void sizesStaySymbolicUntilPythonNeedsThem() {
        Session s;
        QCOMPARE(s.run("def f(x):\n"
                       "    B, T = x.shape\n"
                       "    return x.reshape(B * T), T + 1\n"
                       "def g(x):\n"
                       "    if x.shape[0] > 4:\n"
                       "        return x * 2\n"
                       "    return x + 1\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "cg = torch.compile(g, backend='eager')\n"
                       "for n in (3, 5, 7, 9):\n"
                       "    flat, t = cf(torch.ones(2, n))\n"
                       "    assert flat.shape == (2 * n,) and t == n + 1 and type(t) is int\n"
                       "    assert torch.equal(cg(torch.ones(n, 2)), g(torch.ones(n, 2)))\n"),
                 std::string());
        QStringList f, g;
        for (const CompileEvent& c : s.sink.compiles)
            (c.frameId == 0 ? f : g) << QString::fromStdString(c.compileId);
        QCOMPARE(f, QStringList({"0/0", "0/1"})); // static, then one dynamic graph for all
        // The comparison is a guard on the symbol (as Dynamo's s0 > 4): one dynamic entry.
        QCOMPARE(g, QStringList({"1/0", "1/1"}));
        bool symbolic = false;
        for (const GuardEvent& e : s.sink.guards)
            symbolic |= e.compileId == "1/1" && e.expression == "L['x'].size()[0] > 4";
        QVERIFY(symbolic);
        std::string dynamicGraph;
        for (const GraphEvent& g : s.sink.graphs)
            if (g.compileId == "0/1") dynamicGraph = g.readableCode;
        // As Dynamo 2.3.1 records x.shape: x.size(), then a getitem per dim, of which only
        // the symbolic one is read (getitem for the static B is dropped, its name taken).
        QVERIFY2(dynamicGraph.find("size = l_x_.size()") != std::string::npos &&
                     dynamicGraph.find("getitem_1: \"Sym(s0)\" = size[1]") != std::string::npos,
                 dynamicGraph.c_str());
        QVERIFY(dynamicGraph.find("getitem:") == std::string::npos);
        QVERIFY(dynamicGraph.find("mul: \"Sym(2*s0)\" = 2 * getitem_1") != std::string::npos);
    }

    void sizesOpsComputeFromSymbolsAreReadWhenTheGraphRuns() {
        // max_pool2d's output size and x.view(-1)'s length depend on the symbols in ways the
        // trace cannot write: the dynamic graph reads them when it runs (they were constants
        // of the graph, the first dynamic call's values, wrong for every later size). A chunk
        // of a static dim stays static. F.pad's amounts computed from a size are the SymInts'
        // nodes. One dynamic graph serves every size.
        Session s;
        QCOMPARE(s.run("import torch.nn.functional as F\n"
                       "def f(x):\n"
                       "    y = F.max_pool2d(x, 2)\n"
                       "    return y.size(2), x.view(-1).shape[0], x.chunk(2, 1)[0].size(1)\n"
                       "def g(x):\n"
                       "    d = x.size(2) - 6\n"
                       "    return F.pad(x, [0, 0, d // 2, d - d // 2])\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "cg = torch.compile(g, backend='eager')\n"
                       "for n in (8, 10, 12, 14, 15):\n"
                       "    x = torch.ones(1, 4, n, n)\n"
                       "    assert cf(x) == f(x), (n, cf(x), f(x))\n"
                       "    assert cg(x).shape == g(x).shape, (n, cg(x).shape)\n"),
                 std::string());
        QStringList ids;
        for (const CompileEvent& c : s.sink.compiles)
            ids << QString::fromStdString(c.compileId);
        ids.sort();
        QCOMPARE(ids, QStringList({"0/0", "0/1", "1/0", "1/1"}));
        std::string dynamicGraph, padGraph;
        for (const GraphEvent& g : s.sink.graphs) {
            if (g.compileId == "0/1") dynamicGraph = g.readableCode;
            if (g.compileId == "1/1") padGraph = g.readableCode;
        }
        QVERIFY2(dynamicGraph.find("y.size(2)") != std::string::npos, dynamicGraph.c_str());
        // The pad amounts are the SymInts' nodes, not the traced call's numbers.
        QVERIFY2(padGraph.find("pad(l_x_, [0, 0, floordiv, sub_1])") != std::string::npos,
                 padGraph.c_str());
    }

    void slicedShapesPassedOnAreTorchSizeNodes() {
        // y.shape[-2:] with symbolic items passed to an op: Dynamo 2.3 builds it in the graph
        // as torch.Size([getitem_2, getitem_3]) from the getitems of y.size().
        Session s;
        QCOMPARE(s.run("import torch.nn.functional as F\n"
                       "def f(x, y):\n"
                       "    return F.interpolate(x, size=y.shape[-2:], mode='nearest')\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "for n in (4, 5, 6):\n"
                       "    x, y = torch.ones(1, 1, n, n), torch.ones(1, 1, 2 * n, 2 * n + 1)\n"
                       "    assert cf(x, y).shape == f(x, y).shape\n"),
                 std::string());
        std::string dynamicGraph;
        for (const GraphEvent& g : s.sink.graphs)
            if (g.compileId == "0/1") dynamicGraph = g.readableCode;
        QVERIFY2(dynamicGraph.find("size_1 = torch.Size([getitem_2, getitem_3])") !=
                     std::string::npos,
                 dynamicGraph.c_str());
    }

    void comparisonsAndRangesOnSizes() {
        Session s;
        QCOMPARE(s.run("def f(x):\n"
                       "    T = x.shape[0]\n"
                       "    assert T <= 64\n"
                       "    if T // 2 > 3:\n"
                       "        return x * 2\n"
                       "    return x.sum(0, keepdim=True).expand(T, 2)\n"
                       "def g(x):\n"
                       "    return sum(x[i] for i in range(x.shape[0]))\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "cg = torch.compile(g, backend='eager')\n"
                       "for n in (3, 4, 5, 9, 10, 3):\n"
                       "    x = torch.ones(n, 2)\n"
                       "    assert torch.equal(cf(x), f(x)) and torch.equal(cg(x), g(x)), n\n"),
                 std::string());
        QStringList f, g;
        for (const CompileEvent& c : s.sink.compiles)
            (c.frameId == 0 ? f : g) << QString::fromStdString(c.compileId);
        // f: static 3; dynamic 4 and 5 (T // 2 > 3 false); 9 and 10 need the other branch.
        QCOMPARE(f, QStringList({"0/0", "0/1", "0/2"}));
        // range(T) needs the value: every size compiles (specialised).
        QCOMPARE(g.size(), 5);
    }

    void intsBecomeSymIntsAfterTheyChange() {
        Session s("recompiles");
        QCOMPARE(
            s.run("def f(x, n):\n"
                  "    return x * n\n"
                  "cf = torch.compile(f, backend='eager')\n"
                  "for n in (3, 4, 7, 1, 8):\n"
                  "    assert torch.equal(cf(torch.ones(2), n), torch.full((2,), float(n)))\n"),
            std::string());
        // 3: static; 4: n becomes a SymInt input; 7 reuses it; 1 is specialised (0/1, as 2.3).
        QCOMPARE(statuses(s.sink), QStringList({"0/0 ok", "0/1 ok", "0/2 ok"}));
        QStringList dynamicGuards;
        for (const GuardEvent& g : s.sink.guards)
            if (g.compileId == "0/1") dynamicGuards << QString::fromStdString(g.expression);
        QVERIFY2(dynamicGuards.contains("2 <= L['n']") &&
                     dynamicGuards.contains("___check_type_id(L['n'], int)"),
                 qPrintable(dynamicGuards.join('\n')));
        QVERIFY2(s.sink.log.find("- 2 <= L['n']") != std::string::npos, s.sink.log.c_str());
        QVERIFY(s.sink.graphs[1].readableCode.find("L_n_ : torch.SymInt") != std::string::npos);
    }

    void captureScalarOutputsRecordsItem() {
        Session s;
        QCOMPARE(s.run("torch._dynamo.config.capture_scalar_outputs = True\n"
                       "def f(x):\n"
                       "    s = x.sum().item()\n"
                       "    return x * s + 1\n"
                       "def g(x):\n"
                       "    s = x.max().item()\n"
                       "    if s > 0:\n"
                       "        return x * 2\n"
                       "    return x - 1\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "cg = torch.compile(g, backend='eager')\n"
                       "for v in (1.0, -2.0, 3.0):\n"
                       "    x = torch.full((3,), v)\n"
                       "    assert torch.allclose(cf(x), f(x)) and torch.allclose(cg(x), g(x))\n"),
                 std::string());
        QCOMPARE(s.sink.graphs[0].compileId, std::string("0/0"));
        QVERIFY2(s.sink.graphs[0].readableCode.find("item: \"Sym(u0)\" = sum_1.item()") !=
                     std::string::npos,
                 s.sink.graphs[0].readableCode.c_str());
        // f is one graph for all values; g breaks where Python needs the data-dependent value.
        QStringList f;
        for (const CompileEvent& c : s.sink.compiles)
            if (c.frameId == 0) f << QString::fromStdString(c.compileId + " " + c.status);
        QCOMPARE(f, QStringList({"0/0 ok"}));
        QCOMPARE(s.sink.breaks.size(), size_t(1));
        QVERIFY2(s.sink.breaks[0].reason.find("data-dependent expression u0") != std::string::npos,
                 s.sink.breaks[0].reason.c_str());
    }

    void storesIntoClosureObjectsAreReplayed() {
        Session s;
        QCOMPARE(s.run("def make():\n"
                       "    seen = {}\n"
                       "    def f(x):\n"
                       "        seen['y'] = x + 1\n"
                       "        return x * 2\n"
                       "    return f, seen\n"
                       "f, seen = make()\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "for v in (1.0, 2.0, 3.0):\n"
                       "    cf(torch.full((1,), v))\n"
                       "    assert seen['y'].item() == v + 1, seen\n"),
                 std::string());
        QCOMPARE(s.sink.breaks.size(), size_t(0));
        QCOMPARE(statuses(s.sink), QStringList({"0/0 ok"}));
        // Reached only through another function's closure, the object has no source: a
        // store into it breaks the graph rather than being lost on later calls.
        QCOMPARE(s.run("def make2():\n"
                       "    seen = {}\n"
                       "    def put(v):\n"
                       "        seen['v'] = v\n"
                       "    return put, seen\n"
                       "put, seen2 = make2()\n"
                       "def g(x):\n"
                       "    put(x + 1)\n"
                       "    return x * 2\n"
                       "cg = torch.compile(g, backend='eager')\n"
                       "for v in (1.0, 2.0):\n"
                       "    cg(torch.full((1,), v))\n"
                       "    assert seen2['v'].item() == v + 1, seen2\n"),
                 std::string());
        QVERIFY(!s.sink.breaks.empty());
        QCOMPARE(s.sink.breaks.back().reasonKind, std::string("mutation"));
    }

    void closureValuesAreInputs() {
        Session s;
        QCOMPARE(s.run("def make(k):\n"
                       "    def f(x):\n"
                       "        return x * k\n"
                       "    return f\n"
                       "f3, f5 = make(3), make(5)\n"
                       "c3 = torch.compile(f3, backend='eager')\n"
                       "c5 = torch.compile(f5, backend='eager')\n"
                       "assert torch.equal(c3(torch.ones(1)), torch.full((1,), 3.0))\n"
                       "assert torch.equal(c5(torch.ones(1)), torch.full((1,), 5.0))\n"
                       "assert torch.equal(c3(torch.ones(1)), torch.full((1,), 3.0))\n"),
                 std::string());
        // One code object, two closures: the guard on k tells the entries apart.
        QCOMPARE(statuses(s.sink), QStringList({"0/0 ok", "0/1 ok"}));
        bool guarded = false;
        for (const GuardEvent& g : s.sink.guards)
            guarded |= g.expression == "L['k'] == 3";
        QVERIFY(guarded);
    }

    void closureCellsAreGuarded() {
        Session s;
        QCOMPARE(s.run("def f(x, k):\n"
                       "    def g(y):\n"
                       "        return y * k\n"
                       "    return g(x)\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "assert torch.equal(cf(torch.ones(2), 3), torch.full((2,), 3.0))\n"
                       "assert torch.equal(cf(torch.ones(2), 5), torch.full((2,), 5.0))\n"),
                 std::string());
    }

    void unreadLocalsAreNotGuarded() {
        Session s;
        QCOMPARE(s.run("def f(x, unused, flag):\n"
                       "    return x + 1\n"
                       "cf = torch.compile(f, backend='eager')\n"
                       "for u in (1, 2, 'a', None):\n"
                       "    cf(torch.ones(2), u, u)\n"),
                 std::string());
        QCOMPARE(statuses(s.sink), QStringList({"0/0 ok"}));
    }

    void guardsOfAnEntry() {
        Session s("guards");
        QCOMPARE(
            s.run("SCALE = 3\n"
                  "def f(x, n, flag, xs):\n"
                  "    y = x * n * SCALE + xs[0]\n"
                  "    return y if flag else -y\n"
                  "torch.compile(f, backend='eager')(torch.ones(2), 2, True, [torch.ones(2)])\n"),
            std::string());
        QStringList expressions;
        for (const GuardEvent& g : s.sink.guards)
            expressions << QString::fromStdString(g.kind + " " + g.expression);
        QVERIFY2(expressions.contains("EQUALS_MATCH L['n'] == 2"),
                 qPrintable(expressions.join('\n')));
        QVERIFY(expressions.contains("ID_MATCH L['flag'] == True"));
        QVERIFY(expressions.contains("LENGTH_CHECK len(L['xs']) == 1"));
        QVERIFY(expressions.contains("EQUALS_MATCH G['SCALE'] == 3"));
        QVERIFY(expressions.contains(
            "TENSOR_MATCH check_tensor(L['x'], Tensor, torch.float32, device=None, "
            "requires_grad=False, size=[2], stride=[1])"));
        QVERIFY(s.sink.log.find("GUARDS:") != std::string::npos);
    }

    void readsThroughModulesAreReportedNotGuarded() {
        // guard_nn_modules=False: the module keeps ID_MATCH and training; what is read through
        // it is reported with installed = false, and left out of the guard dump.
        Session s("guards");
        QCOMPARE(s.run("class M(torch.nn.Module):\n"
                       "    def __init__(self):\n"
                       "        super().__init__()\n"
                       "        self.scale = 2.0\n"
                       "    def forward(self, x):\n"
                       "        return x * self.scale\n"
                       "m = M()\n"
                       "torch.compile(m, backend='eager')(torch.ones(2))\n"),
                 std::string());
        QStringList installed, notInstalled;
        for (const GuardEvent& g : s.sink.guards)
            (g.installed ? installed : notInstalled) << QString::fromStdString(g.expression);
        QVERIFY2(installed.contains("L['self'].training == True"),
                 qPrintable(installed.join('\n')));
        QCOMPARE(notInstalled, QStringList({"L['self'].scale == 2.0"}));
        QVERIFY(s.sink.log.find("L['self'].scale") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(CaptureTest)
#include "tst_capture.moc"
