// SPDX-License-Identifier: MIT
#include "studio_fixture.h"

#include "kiln_process.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtGlobal>

namespace kiln::testing {

namespace {

/// max-autotune picks whichever matrix-product candidate is fastest on this CPU; the tests
/// need Kiln's template to replace the matmul, so the script allows templates only.
const char* kModesWorkload = "import torch\n"
                             "\n"
                             "def f(x, w):\n"
                             "    h = torch.relu(x @ w) * 2.0\n"
                             "    return torch.softmax(h, dim=-1).sum(dim=0)\n"
                             "\n"
                             "torch._inductor.config.max_autotune_gemm_backends = 'TRITON'\n"
                             "cf = torch.compile(f)\n"
                             "x, w = torch.randn(64, 32), torch.randn(32, 48)\n"
                             "for i in range(5):\n"
                             "    out = cf(x, w)\n"
                             "print(out.shape)\n";

const char* kTrainingStep = "import torch\n"
                            "torch.manual_seed(0)\n"
                            "net = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(),\n"
                            "                          torch.nn.Linear(16, 2))\n"
                            "compiled = torch.compile(net)\n"
                            "x = torch.randn(4, 8)\n"
                            "for step in range(3):\n"
                            "    compiled(x).sum().backward()\n"
                            "with torch.no_grad():\n"
                            "    compiled(x)\n";

QString sourceDir() {
    QString dir = qEnvironmentVariable("KILN_SOURCE_DIR");
    return dir.isEmpty() ? QStringLiteral(KILN_FIXTURE_SOURCE_DIR) : dir;
}

bool run(const QStringList& args, const QString& dir) {
    KilnProcess p = runKilnBinary(args, dir);
    if (p.exitCode != 0)
        qWarning("kiln %s failed: %s", qPrintable(args.join(' ')), qPrintable(p.err));
    return p.exitCode == 0;
}

} // namespace

QString graphBreaksTrace(const QString& dir) {
    QString script = QDir(dir).filePath("graph_breaks.py");
    QFile::remove(script);
    if (!QFile::copy(sourceDir() + "/resources/workloads/graph_breaks.py", script)) return {};
    if (!run({"run", script, "--quiet"}, dir)) return {};
    return QDir(dir).filePath("graph_breaks.kiln");
}

QString compareModesTrace(const QString& dir) {
    QString script = QDir(dir).filePath("modes.py");
    QFile file(script);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    file.write(kModesWorkload);
    file.close();
    if (!run({"run", script, "--quiet"}, dir)) return {};
    if (!run({"run", script, "--quiet", "--mode", "max-autotune"}, dir)) return {};
    return QDir(dir).filePath("modes.kiln");
}

QString scriptTrace(const QString& dir, const QString& fileName, const QString& source,
                    const QStringList& extraArgs) {
    QString script = QDir(dir).filePath(fileName);
    QFile file(script);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    file.write(source.toUtf8());
    file.close();
    QString trace = QFileInfo(script).path() + "/" + QFileInfo(script).completeBaseName() + ".kiln";
    KilnProcess p = runKilnBinary(QStringList{"run", script, "--quiet"} + extraArgs, dir);
    if (!QFileInfo::exists(trace)) {
        qWarning("kiln run %s wrote no trace: %s", qPrintable(script), qPrintable(p.err));
        return {};
    }
    return trace;
}

QString trainingTrace(const QString& dir, int runs) {
    QString trace;
    for (int run = 0; run < runs; ++run)
        trace = scriptTrace(dir, "train.py", kTrainingStep);
    return trace;
}

views::SnapshotPtr readSnapshot(const QString& trace, qint64 runId) {
    auto reader = trace::TraceReader::open(trace.toStdString());
    if (!reader) return nullptr;
    auto snapshot = views::readRunSnapshot(*reader.value(), runId);
    if (!snapshot) return nullptr;
    return std::make_shared<const views::RunSnapshot>(std::move(snapshot).value());
}

} // namespace kiln::testing
