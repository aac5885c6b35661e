// SPDX-License-Identifier: MIT
// GUI stalls over a trace of many recompiles (issue 14, finding 5): a real `kiln run` of a
// function recompiled for every size up to N (cache_size_limit raised to N), so the trace holds
// N cache entries and N²/2 recompile rows (each recompile names every entry's failing guard).
// The whole window shows it; then a user hovers the recompile marker in the source gutter,
// clicks the line, and steps through the compiles, while a 5 ms heartbeat measures how late
// the GUI thread answers.
#include "event_profiler.h"
#include "main_window.h"
#include "source_panel.h"
#include "stream_case.h"
#include "window_cases.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QProcess>
#include <QTemporaryDir>
#include <QToolTip>
#include <algorithm>
#include <stdexcept>

namespace kiln::bench {

namespace {

const char* kWorkload = "import torch\n"
                        "torch._dynamo.config.cache_size_limit = ENTRIES\n"
                        "torch._dynamo.config.automatic_dynamic_shapes = False\n"
                        "\n"
                        "@torch.compile\n"
                        "def f(x):\n"
                        "    return x * 2\n"
                        "\n"
                        "for n in range(1, ENTRIES + 1):\n"
                        "    f(torch.ones(n))\n";

QString recordTrace(const QTemporaryDir& dir, int entries) {
    const QString script = dir.filePath("recompiles.py");
    QFile file(script);
    if (!file.open(QIODevice::WriteOnly)) throw std::runtime_error("cannot write the workload");
    file.write(QByteArray(kWorkload).replace("ENTRIES", QByteArray::number(entries)));
    file.close();
    QProcess kiln;
    kiln.start(QDir(QCoreApplication::applicationDirPath()).filePath("kiln"),
               {"run", script, "--quiet"});
    if (!kiln.waitForFinished(600'000) || kiln.exitCode() != 0)
        throw std::runtime_error("kiln run of the recompile workload failed");
    return script;
}

/// The first line with a recompile marker.
int recompileLine(const views::CodeEditor& editor) {
    for (int line = 1; line <= editor.document()->blockCount(); ++line)
        for (const views::LineMarker& m : editor.markersAt(line))
            if (m.kind == views::MarkerKind::Recompile) return line;
    throw std::runtime_error("the source view shows no recompile marker");
}

/// Runs \p action, then lets the event loop run for \p settleMs; returns the action's own ms.
template <typename Action>
double timed(Action action, int settleMs = 60) {
    const int64_t start = benchNowNs();
    action();
    const double ms = (benchNowNs() - start) / 1e6;
    const int64_t until = benchNowNs() + int64_t(settleMs) * 1'000'000;
    runEventLoopUntil([&] { return benchNowNs() >= until; });
    return ms;
}

struct Phase {
    std::string name;
    std::string what;
    std::vector<double> actionMs;
    double gapMax = 0;
    std::vector<EventRecord> slowEvents; ///< the GUI thread's events over 20 ms, longest first
};

Result phaseRow(const Phase& p, double idleMax, int entries) {
    Spread actions = spreadOf(p.actionMs);
    Result r{"window.recompiles." + p.name + ".gui_gap.max",
             "longest gap of a 5 ms heartbeat while " + p.what + " (" + std::to_string(entries) +
                 " cache entries of one function)",
             "ms",
             p.gapMax,
             "the same heartbeat, window shown and idle, 1 s",
             idleMax,
             100};
    r.notes.push_back("each action on the GUI thread: median " + fixed(actions.median) +
                      " ms, max " + fixed(actions.max) + " ms over " +
                      std::to_string(p.actionMs.size()));
    for (size_t i = 0; i < std::min<size_t>(3, p.slowEvents.size()); ++i) {
        const EventRecord& e = p.slowEvents[i];
        r.notes.push_back("slow event: " + eventTypeName(e.type) + " to " + e.receiver +
                          (e.panel.empty() ? "" : " (" + e.panel + ")") + ", " +
                          fixed(e.durationNs / 1e6) + " ms");
    }
    return r;
}

} // namespace

std::vector<Result> windowRecompileCase(int entries) {
    QTemporaryDir dir;
    const QString script = recordTrace(dir, entries);
    studio::MainWindow window;
    showLikeTheApp(window);
    Heartbeat heartbeat;
    heartbeat.start();
    const int64_t idleUntil = benchNowNs() + 1'000'000'000;
    runEventLoopUntil([&] { return benchNowNs() >= idleUntil; });
    const double idleMax = spreadOf(Heartbeat::millis(heartbeat.stop())).max;

    if (!window.openFile(script)) throw std::runtime_error("the window refused the workload");
    if (!waitForSignal(&window, &studio::MainWindow::ready, 120'000))
        throw std::runtime_error("the recompile trace was not shown");
    // What the panels finish off the GUI thread after the first view (the diagram) lands first.
    const int64_t settled = benchNowNs() + 1'000'000'000;
    runEventLoopUntil([&] { return benchNowNs() >= settled; });
    auto* source = static_cast<views::SourcePanel*>(window.panel("source"));
    window.showPanel("source");
    views::CodeEditor& editor = *source->editor();
    const int line = recompileLine(editor);
    QWidget* gutter = editor.gutter();
    const QPoint at = editor.lineRect(line).center() -
                      QPoint(editor.lineRect(line).center().x(), 0) +
                      QPoint(gutter->width() / 2, 0);
    auto snapshot = window.selection().snapshot();

    std::vector<Phase> phases{{"hover", "hovering the recompile marker", {}, 0},
                              {"click", "clicking the recompiled line", {}, 0},
                              {"step", "stepping through the compiles", {}, 0}};
    auto measure = [&](Phase& phase, int times, const std::function<void(int)>& action) {
        heartbeat.start();
        BenchApplication::instance()->startRecording(20'000'000);
        for (int i = 0; i < times; ++i)
            phase.actionMs.push_back(timed([&] { action(i); }));
        phase.gapMax = spreadOf(Heartbeat::millis(heartbeat.stop())).max;
        for (EventRecord& e : BenchApplication::instance()->stopRecording())
            if (e.type != QEvent::UpdateRequest) phase.slowEvents.push_back(std::move(e));
        std::sort(phase.slowEvents.begin(), phase.slowEvents.end(),
                  [](const auto& a, const auto& b) { return a.durationNs > b.durationNs; });
    };
    measure(phases[0], 8, [&](int) {
        QHelpEvent help(QEvent::ToolTip, at, gutter->mapToGlobal(at));
        QCoreApplication::sendEvent(gutter, &help);
        QToolTip::hideText();
    });
    measure(phases[1], 8, [&](int i) {
        QWidget* target = i % 2 ? editor.viewport() : gutter;
        QPoint p = i % 2 ? editor.lineRect(line).center() : at;
        QMouseEvent press(QEvent::MouseButtonPress, p, target->mapToGlobal(p), Qt::LeftButton,
                          Qt::LeftButton, Qt::NoModifier);
        QMouseEvent release(QEvent::MouseButtonRelease, p, target->mapToGlobal(p), Qt::LeftButton,
                            Qt::NoButton, Qt::NoModifier);
        QCoreApplication::sendEvent(target, &press);
        QCoreApplication::sendEvent(target, &release);
    });
    const size_t stride = std::max<size_t>(1, snapshot->compiles.size() / 24);
    measure(phases[2], 24, [&](int i) {
        const size_t c = std::min(snapshot->compiles.size() - 1, size_t(i) * stride);
        window.selection().selectCompile(QString::fromStdString(snapshot->compiles[c].compileId));
    });
    std::vector<Result> rows;
    for (const Phase& p : phases)
        rows.push_back(phaseRow(p, idleMax, entries));
    return rows;
}

} // namespace kiln::bench
