// SPDX-License-Identifier: MIT
// Issue 16's acceptance on the real-code corpus (tests/golden/models/): for every model, the
// gradients of its parameters through torch.compile (inductor, AOT autograd) equal eager's
// within 1e-5 relative (float32), over two training calls. Each corpus script is cut before its
// first top-level statement that runs the model, keeping its classes and helpers, and a loss
// for that model is appended. Where the graph compiles a backward, the loss's grad_fn says so.
#include "compiler_fixture.h"

#include <QtTest>
#include <fstream>
#include <sstream>

using namespace kiln;

namespace {

const char* kCheck = R"(
def aot_check(name, make, loss_of, inputs, compiles_backward=True):
    torch.manual_seed(0)
    ref = make()
    cmp = make()
    cmp.load_state_dict(ref.state_dict())
    compiled = torch.compile(cmp)
    for _ in range(2):
        for m in (ref, cmp):
            m.zero_grad(set_to_none=True)
        loss_of(ref, *inputs).backward()
        loss = loss_of(compiled, *inputs)
        loss.backward()
    # Whether backward went through a compiled graph's node (the loss may be eager code after
    # the compiled module's output).
    # (grad_fn objects are made per access: compared with ==, which compares their nodes)
    seen, todo, compiled_node = [], [loss.grad_fn], False
    while todo:
        fn = todo.pop()
        if fn is None or any(fn == s for s in seen):
            continue
        seen.append(fn)
        compiled_node = compiled_node or fn.name() == "CompiledFunctionBackward"
        todo.extend(f for f, _ in fn.next_functions)
    assert compiled_node == compiles_backward, (name, compiled_node)
    checked = 0
    for (pname, a), b in zip(ref.named_parameters(), cmp.parameters()):
        if a.grad is None:
            assert b.grad is None, (name, pname)
            continue
        err = ((a.grad - b.grad).norm() / max(a.grad.norm().item(), 1e-12)).item()
        assert err < 1e-5, (name, pname, err)
        checked += 1
    assert checked > 0, name
    for (bname, a), b in zip(ref.named_buffers(), cmp.buffers()):  # running statistics
        assert torch.allclose(a, b, rtol=1e-5, atol=1e-6), (name, bname, a, b)
)";

struct CorpusModel {
    const char* file;
    const char* cutBefore; ///< the first top-level line the check does not keep
    const char* check;
};

const CorpusModel kModels[] = {
    {"gpt.py", "config = GPTConfig()", R"(
idx = torch.arange(16).view(2, 8) % 64
aot_check("gpt", lambda: GPT(GPTConfig()), lambda m, i, t: m(i, t)[1], (idx, (idx * 7 + 3) % 64))
)"},
    {"llama_block.py", "args = ModelArgs()", R"(
tokens = (torch.arange(16).view(2, 8) * 5) % 64
aot_check("llama", lambda: Transformer(ModelArgs()),
          lambda m, t: F.cross_entropy(m(t).view(-1, 64), ((t + 1) % 64).view(-1)), (tokens,))
)"},
    {"moe_router.py", "cfg = MoEConfig()", R"(
h = torch.sin(torch.arange(2 * 6 * 16, dtype=torch.float32) * 0.37).view(2, 6, 16)
def moe_loss(m, h):
    out, aux = m(h)
    return out.pow(2).mean() + aux
# The routing loop breaks the graph (torch.where(mask) is data-dependent), as in PyTorch; the
# router before the break compiles with its backward.
aot_check("moe", lambda: SparseMoE(MoEConfig()), moe_loss, (h,))
)"},
    {"resnet.py", "model = ResNet(BasicBlock, [2, 2])", R"(
x = torch.sin(torch.arange(2 * 3 * 16 * 16, dtype=torch.float32) * 0.013).view(2, 3, 16, 16)
def make_eval():
    m = ResNet(BasicBlock, [2, 2])
    deterministic_init(m)
    return m.eval()
# BasicBlock's `out += identity` is functionalized; adaptive pooling runs through the eager
# kernels and its eager derivative.
aot_check("resnet eval", make_eval, lambda m, x: m(x).pow(2).mean(), (x,))
# Training-mode batch norm: batch statistics in the graph, running statistics its mutations.
aot_check("resnet train", lambda: ResNet(BasicBlock, [2, 2]), lambda m, x: m(x).pow(2).mean(),
          (x,))
)"},
    {"seq2seq.py", "cfg = Seq2SeqConfig()", R"(
src = (torch.arange(12).view(2, 6) * 3) % 38 + 2
tgt = (torch.arange(14).view(2, 7) * 5) % 46 + 2
aot_check("seq2seq", lambda: Seq2Seq(Seq2SeqConfig()), lambda m, s, t: m(s, t[:, :-1], t[:, 1:])[1],
          (src, tgt))
)"},
    {"vae.py", "graphs = []", R"(
x = torch.sigmoid(torch.sin(torch.arange(4 * 256, dtype=torch.float32) * 0.05)).view(4, 256)
eps = torch.cos(torch.arange(16, dtype=torch.float32)).view(4, 4)
def vae_loss(m, x, eps):
    recon, mu, logvar = m(x, eps)
    return loss_function(recon, x, mu, logvar)
aot_check("vae", VAE, vae_loss, (x, eps))
)"},
    {"vit_patch.py", "graphs = []", R"(
img = torch.sin(torch.arange(2 * 3 * 16 * 16, dtype=torch.float32) * 0.021).view(2, 3, 16, 16)
aot_check("vit", VisionTransformer, lambda m, x: m(x).logsumexp(-1).mean(), (img,))
)"},
};

std::string corpusPrefix(const CorpusModel& m, std::string& error) {
    std::ifstream in(std::string(std::getenv("KILN_SOURCE_DIR")) + "/tests/golden/models/" +
                     m.file);
    std::string line, kept;
    while (std::getline(in, line)) {
        if (line.rfind(m.cutBefore, 0) == 0) return kept;
        kept += line + "\n";
    }
    error = std::string(m.file) + ": no line starts with '" + m.cutBefore + "'";
    return {};
}

} // namespace

class AotCorpusTest : public QObject {
    Q_OBJECT

private slots:
    void compiledGradientsEqualEagerOnEveryCorpusModel_data() {
        QTest::addColumn<int>("model");
        for (size_t i = 0; i < std::size(kModels); ++i)
            QTest::newRow(kModels[i].file) << static_cast<int>(i);
    }
    void compiledGradientsEqualEagerOnEveryCorpusModel() {
        QFETCH(int, model);
        const CorpusModel& m = kModels[model];
        std::string error;
        std::string prefix = corpusPrefix(m, error);
        QVERIFY2(error.empty(), error.c_str());
        testing::CompilerFixture f(m.file);
        error = f.run(prefix + kCheck + m.check);
        QVERIFY2(error.empty(), (error + "\n" + f.sink.err).c_str());
    }
};

QTEST_GUILESS_MAIN(AotCorpusTest)
#include "tst_aot_corpus.moc"
