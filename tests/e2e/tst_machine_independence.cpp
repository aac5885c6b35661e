// SPDX-License-Identifier: MIT
// Results that must not depend on the machine: the eager kernels give the same bits with 1, 2
// or 3 threads (reductions split over outputs, or over chunks of a fixed size) and on the AVX2
// and AVX-512 code paths (KILN_CPU_ISA), so a workload prints the same on any x86-64 CPU.
#include "kiln_process.h"

#include <QFile>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest>

namespace {

/// Reductions, softmax, layer_norm, the vectorised functions and a product, printed exactly
/// (repr round-trips a float) on tensors big enough to be split over threads.
const char* kScript = R"(import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(512, 1024)
w = torch.randn(256, 1024)
d = x.double()
values = [x.sum(), x.sum(0).sum(), x.sum(-1).sum(), x.mean(), x.var(), x.amax(), x.std(-1).sum(),
          x.exp().sum(), x.sin().sum(), x.tanh().sum(), F.gelu(x).sum(), torch.sigmoid(x).sum(),
          torch.softmax(x, -1).sum(-1).sum(), torch.log_softmax(x, 0).sum(),
          F.layer_norm(x, (1024,)).sum(), d.sum(), d.exp().sum(), d.abs().log().sum(),
          x.t().contiguous().sum(0).sum(), torch.cumsum(x, 1).sum(), x.bfloat16().float().sum()]
for v in values:
    print(repr(v.item()))
print(repr((x @ w.t()).sum().item()), "matmul")
)";

struct Run {
    int exitCode = -1;
    QString out;
};

Run runWith(const QString& dir, const QString& threads, const QString& isa) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("KILN_NUM_THREADS", threads);
    env.insert("OMP_NUM_THREADS", threads);
    if (!isa.isEmpty()) env.insert("KILN_CPU_ISA", isa);
    kiln::testing::KilnProcess p =
        kiln::testing::runKilnBinary({"run", "w.py", "--quiet"}, dir, env);
    return {p.exitCode, p.out};
}

/// The lines other than the matrix product's: oneDNN may split a product's inner dimension
/// over threads, which changes its rounding, as MKL's does for PyTorch.
QString withoutProduct(const QString& out) {
    QStringList lines = out.split('\n');
    lines.removeIf([](const QString& l) { return l.endsWith("matmul"); });
    return lines.join('\n');
}

} // namespace

class MachineIndependenceTest : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase() {
        QFile script(m_dir.filePath("w.py"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(kScript);
    }

    void theThreadCountDoesNotChangeAResult() {
        Run one = runWith(m_dir.path(), "1", {});
        QCOMPARE(one.exitCode, 0);
        QCOMPARE(one.out.count('\n'), 22);
        for (QString threads : {"2", "3"}) {
            Run more = runWith(m_dir.path(), threads, {});
            QCOMPARE(more.exitCode, 0);
            QCOMPARE(withoutProduct(more.out), withoutProduct(one.out));
        }
    }

    void avx2AndAvx512GiveTheSameBits() {
        if (QString(qgetenv("KILN_CPU_ISA")).size()) QSKIP("KILN_CPU_ISA is set for this run");
        Run avx2 = runWith(m_dir.path(), "2", "avx2");
        Run best = runWith(m_dir.path(), "2", "avx512"); // capped at what the CPU has
        QCOMPARE(avx2.exitCode, 0);
        QCOMPARE(best.exitCode, 0);
        QCOMPARE(withoutProduct(best.out), withoutProduct(avx2.out));
    }
};

QTEST_GUILESS_MAIN(MachineIndependenceTest)
#include "tst_machine_independence.moc"
