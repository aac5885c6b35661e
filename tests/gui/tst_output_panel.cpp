// SPDX-License-Identifier: MIT
// The Output panel on a real run that prints, logs (TORCH_LOGS=graph_breaks) and dies with an
// exception: every line shown with its stream and time, stderr in red, the filter box, CSV,
// following a growing run only when the user is at the bottom, and a screenshot.
#include "kiln_process.h"
#include "output_panel.h"
#include "selection.h"
#include "studio_fixture.h"
#include "table_export.h"
#include "trace_session.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace kiln;

namespace {

const char* kWorkload = "import torch\n"
                        "\n"
                        "def f(x):\n"
                        "    print(\"inside f\")\n"
                        "    return x + 1\n"
                        "\n"
                        "cf = torch.compile(f)\n"
                        "for i in range(60):\n"
                        "    print(\"step\", i)\n"
                        "print(cf(torch.ones(4)).shape)\n"
                        "raise ValueError(\"bad input shape\")\n";

/// Runs kWorkload once into `dir`/noisy.kiln; the run fails on purpose (the exception goes to
/// stderr).
QString noisyTrace(const QString& dir) {
    QString script = QDir(dir).filePath("noisy.py");
    QFile file(script);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) return {};
    file.write(kWorkload);
    file.close();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("TORCH_LOGS", "graph_breaks");
    testing::KilnProcess p = testing::runKilnBinary({"run", script, "--quiet"}, dir, env);
    if (p.exitCode == -1) return {};
    return QDir(dir).filePath("noisy.kiln");
}

/// \p full with only its first \p lines output lines: the same run earlier in its life.
views::SnapshotPtr truncated(const views::SnapshotPtr& full, size_t lines) {
    auto earlier = std::make_shared<views::RunSnapshot>(*full);
    earlier->output.resize(lines);
    return earlier;
}

} // namespace

class OutputPanelTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    views::SnapshotPtr m_snapshot;

private slots:
    void initTestCase() {
        QString trace = noisyTrace(m_dir.path());
        QVERIFY(!trace.isEmpty());
        m_snapshot = testing::readSnapshot(trace, 1);
        QVERIFY(m_snapshot);
        QCOMPARE(m_snapshot->run.status, trace::RunStatus::Error);
    }

    void showsEveryLineWithStderrInRed() {
        views::TraceSession session;
        views::Selection selection;
        selection.selectRun(1);
        selection.setSnapshot(m_snapshot);
        views::OutputPanel panel(session, selection);
        QCOMPARE(panel.objectName(), QString("output"));
        QAbstractItemModel& model = *panel.view()->model();
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), int(m_snapshot->output.size()));
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QString("stream"));

        int stderrLines = 0, logLines = 0;
        for (int row = 0; row < model.rowCount(); ++row) {
            QString stream = model.index(row, 0).data().toString();
            QString text = model.index(row, 2).data().toString();
            QCOMPARE(text, QString::fromStdString(m_snapshot->output[size_t(row)].text));
            QVariant colour = model.index(row, 2).data(Qt::ForegroundRole);
            if (stream == "stderr") {
                ++stderrLines;
                QCOMPARE(colour.value<QColor>(), views::OutputPanel::stderrColour());
            } else if (stream == "stdout") {
                QVERIFY(!colour.isValid()); // the palette's text colour
            } else {
                ++logLines;
                QVERIFY(colour.value<QColor>() != views::OutputPanel::stderrColour());
            }
        }
        QVERIFY(stderrLines >= 2); // the traceback and the error
        QVERIFY(logLines >= 1);    // the graph break, logged
        int lastLog = -1;
        for (int row = 0; row < model.rowCount(); ++row)
            if (model.index(row, 0).data().toString() == "log") lastLog = row;
        QVERIFY(model.index(lastLog, 2).data(Qt::ToolTipRole).toString().contains("Unsupported"));
        QCOMPARE(model.index(0, 2).data().toString(), QString("step 0"));
        QCOMPARE(model.index(model.rowCount() - 1, 2).data().toString(),
                 QString("ValueError: bad input shape"));
        // Time is seconds since the run started, in order.
        double first = model.index(0, 1).data().toDouble();
        double last = model.index(model.rowCount() - 1, 1).data().toDouble();
        QVERIFY(first >= 0 && last >= first && last < 60);
        QVERIFY(views::toCsv(model).startsWith("stream,time (s),text"));
        QVERIFY(views::toCsv(model).contains("ValueError: bad input shape"));
    }

    void filterBoxFiltersByTextOrStream() {
        views::TraceSession session;
        views::Selection selection;
        selection.selectRun(1);
        selection.setSnapshot(m_snapshot);
        views::OutputPanel panel(session, selection);
        QAbstractItemModel& model = *panel.view()->model();
        QTest::keyClicks(panel.filterBox(), "step 4");
        QCOMPARE(model.rowCount(), 11); // step 4, step 40 ... step 49
        panel.filterBox()->clear();
        panel.filterBox()->setText("STDERR");
        QVERIFY(model.rowCount() >= 2);
        for (int row = 0; row < model.rowCount(); ++row)
            QCOMPARE(model.index(row, 0).data().toString(), QString("stderr"));
        panel.filterBox()->clear();
        QCOMPARE(model.rowCount(), int(m_snapshot->output.size()));
    }

    void followsAGrowingRunOnlyFromTheBottom() {
        views::TraceSession session;
        views::Selection selection;
        selection.selectRun(1);
        selection.setSnapshot(truncated(m_snapshot, 30));
        views::OutputPanel panel(session, selection);
        panel.resize(700, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QScrollBar& bar = *panel.view()->verticalScrollBar();
        QVERIFY(bar.maximum() > 0);
        QCOMPARE(bar.value(), bar.maximum()); // a new run shows its newest line

        // At the bottom: new lines scroll into view.
        selection.setSnapshot(truncated(m_snapshot, 45));
        QCOMPARE(panel.view()->model()->rowCount(), 45);
        QCOMPARE(bar.value(), bar.maximum());

        // Scrolled up: the user's position stays while more lines come.
        bar.setValue(3);
        selection.setSnapshot(m_snapshot);
        QCOMPARE(panel.view()->model()->rowCount(), int(m_snapshot->output.size()));
        QCOMPARE(bar.value(), 3);
        QVERIFY(bar.maximum() > 3);

        panel.resize(900, 600);
        panel.view()->scrollToBottom();
        panel.grab().save("/tmp/source-output.png");
    }
};

QTEST_MAIN(OutputPanelTest)
#include "tst_output_panel.moc"
