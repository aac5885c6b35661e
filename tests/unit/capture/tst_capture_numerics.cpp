// SPDX-License-Identifier: MIT
// Compiled functions against the eager interpreter on random inputs: every function runs
// compiled (eager and inductor backends, static and dynamic shapes, with graph breaks) and
// eagerly on the same inputs, and the results must agree.
#include "capture/compile_api.h"
#include "inductor/inductor_backend.h"
#include "snippet_runner.h"
#include "torchapi/config_modules.h"
#include "torchapi/install.h"

#include <QtTest>

using namespace kiln;

namespace {

/// Functions of one tensor argument `x` (shape (n, 8)) that exercise the capture paths.
const char* kFunctions = R"(
import torch
import torch.nn as nn
import torch.nn.functional as F

def pointwise(x):
    return torch.sin(x) * 2 + x.exp() / (1 + x * x)

def reductions(x):
    return x.sum(0) + x.mean(dim=1, keepdim=True).sum() - x.amax()

def views(x):
    y = x.t().contiguous().view(-1)
    return y[::2] * 3, x.reshape(-1, 4)[:, 1:]

def with_print(x):
    a = torch.relu(x) + 1
    print("", end="")
    return (a * x).sum(1)

def with_branch(x):
    y = x.tanh()
    if y.sum() > 0:
        return y * 2
    return y - 1

def with_item(x):
    s = x.abs().max().item()
    return x / s

def in_place(x):
    y = x.clone()
    y.mul_(2)
    y[0] = 0
    return y

def helper(v):
    return F.gelu(v) * v.sigmoid()

def inlined(x):
    return helper(x) + helper(x * 2)

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 8)
        self.norm = nn.LayerNorm(8)

    def forward(self, x):
        return self.norm(x + self.fc2(F.relu(self.fc1(x))))

block = Block()

def module(x):
    return block(x)

@torch.compiler.disable
def eager_scale(t):
    return t * 3

def item_mid_statement(x):
    return x * x.abs().max().item() + torch.sin(x)

def disabled_mid_statement(x):
    return eager_scale(x + 1).relu() - 1

def loop_after_break(x):
    y = x * x.sum().item()
    for i in range(2):
        y = y + i
        print("", end="")
    return y

def two_breaks(x):
    a = torch.cos(x)
    return a.sum().item() * a + a.mean().item() - torch.tanh(a)

def branch_after_mid_break(x):
    y = torch.sigmoid(x) * eager_scale(x).sum()
    if y.mean() > 0.5:
        return y + x
    return y - x

class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(x) * torch.sigmoid(x).sum().item() + self.fc(x).relu()

gate = Gate()

def module_mid_break(x):
    return gate(x) * 2

FUNCTIONS = [pointwise, reductions, views, with_print, with_branch, with_item, in_place,
             inlined, module, item_mid_statement, disabled_mid_statement, loop_after_break,
             two_breaks, branch_after_mid_break, module_mid_break]

def same(a, b):
    if isinstance(a, tuple):
        return all(same(p, q) for p, q in zip(a, b))
    return a.shape == b.shape and torch.allclose(a, b, rtol=1e-5, atol=1e-6)

def check(backend, dynamic):
    torch._dynamo.reset()
    for fn in FUNCTIONS:
        compiled = torch.compile(fn, backend=backend, dynamic=dynamic)
        for n in (4, 6, 6, 9, 1):
            x = torch.randn(n, 8)
            want = fn(x.clone())
            got = compiled(x)
            assert same(got, want), f"{fn.__name__} backend={backend} dynamic={dynamic} n={n}"
)";

} // namespace

class CaptureNumericsTest : public QObject {
    Q_OBJECT

private:
    void check(const char* backend, const char* dynamic) {
        NullEventSink sink;
        lang::Interpreter interp(sink);
        Logger logger(sink);
        torchapi::ScriptCompileConfig config(interp);
        capture::CaptureEngine engine(interp, config, sink, logger);
        engine.setInductorCompiler(inductor::makeInductorCompiler());
        torchapi::TorchOptions options;
        options.onImported = [&](lang::Interpreter& i, lang::ModuleObject&) {
            capture::installCompileApi(i, engine);
        };
        torchapi::installTorch(interp, options);
        testing::SnippetRunner snippets(interp, "", "numerics.py");
        std::string call =
            std::string("torch.manual_seed(0)\ncheck('") + backend + "', " + dynamic + ")\n";
        std::string error = snippets.run(kFunctions + call);
        QVERIFY2(error.empty(), error.c_str());
        QVERIFY(engine.graphCount() > 0);
    }

private slots:
    void eagerBackendStaticAndAutomatic() { check("eager", "None"); }
    void eagerBackendDynamic() { check("eager", "True"); }
    void eagerBackendStatic() { check("eager", "False"); }
    void inductorBackend() { check("inductor", "None"); }
    void aotEagerBackend() { check("aot_eager", "None"); }
};

QTEST_GUILESS_MAIN(CaptureNumericsTest)
#include "tst_capture_numerics.moc"
