// SPDX-License-Identifier: MIT
// GUI stalls while the whole window follows a real `kiln run` child it started (F5): the
// workload compiles, prints and launches kernels for a few seconds, the window polls the trace
// it writes. The synthetic stream cases measure larger traces; this one measures the real path
// end to end (QProcess, the trace file appearing, live refreshes, the run's end).
#include "main_window.h"
#include "stream_case.h"
#include "window_cases.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <stdexcept>

namespace kiln::bench {

namespace {

/// Compiles two graphs (one with a graph break) and calls them in a loop that prints now and
/// then: launches, output and compiles arrive while the window watches.
const char* kWorkload = "import torch\n"
                        "\n"
                        "def block(x, w):\n"
                        "    h = torch.relu(x @ w)\n"
                        "    return torch.softmax(h * 0.5, dim=-1)\n"
                        "\n"
                        "def norm(x):\n"
                        "    y = x - x.mean(dim=-1, keepdim=True)\n"
                        "    print('norm', tuple(x.shape))\n"
                        "    return y / (y.std(dim=-1, keepdim=True) + 1e-5)\n"
                        "\n"
                        "cblock = torch.compile(block)\n"
                        "cnorm = torch.compile(norm)\n"
                        "x, w = torch.randn(64, 128), torch.randn(128, 128)\n"
                        "for step in range(ITERATIONS):\n"
                        "    x = cblock(x, w)\n"
                        "    if step % 500 == 0:\n"
                        "        x = cnorm(x)\n"
                        "print('done', round(x.sum().item(), 3))\n";

} // namespace

std::vector<Result> windowChildRunCase(int iterations) {
    QTemporaryDir dir;
    const QString script = dir.filePath("child_workload.py");
    QFile file(script);
    if (!file.open(QIODevice::WriteOnly)) throw std::runtime_error("cannot write the workload");
    file.write(QByteArray(kWorkload).replace("ITERATIONS", QByteArray::number(iterations)));
    file.close();
    qputenv("KILN_EXECUTABLE",
            QDir(QCoreApplication::applicationDirPath()).filePath("kiln").toLocal8Bit());

    studio::MainWindow window;
    showLikeTheApp(window);
    Heartbeat heartbeat;
    heartbeat.start();
    const int64_t idleUntil = benchNowNs() + 1'000'000'000;
    runEventLoopUntil([&] { return benchNowNs() >= idleUntil; });
    Spread idle = spreadOf(Heartbeat::millis(heartbeat.stop()));

    if (!window.openFile(script)) throw std::runtime_error("the window refused the workload");
    heartbeat.start();
    const int64_t startNs = benchNowNs();
    window.runWorkload();
    bool finished = false;
    QObject::connect(&window.controller(), &studio::RunController::sequenceFinished,
                     [&] { finished = true; });
    const int64_t giveUp = startNs + 300'000'000'000;
    runEventLoopUntil([&] {
        auto s = window.selection().snapshot();
        return (finished && s && !s->running()) || benchNowNs() > giveUp;
    });
    std::vector<Heartbeat::Gap> gaps = heartbeat.stop();
    auto shown = window.selection().snapshot();
    if (!shown || shown->run.status != trace::RunStatus::Ok)
        throw std::runtime_error("the child run did not end ok in the window");
    const double runSeconds = (benchNowNs() - startNs) / 1e9;
    Spread gap = spreadOf(Heartbeat::millis(gaps));
    const std::string what = "a real kiln run child started by the window (" +
                             std::to_string(shown->launches.size()) + " launches, " +
                             std::to_string(shown->compiles.size()) + " compiles, " +
                             std::to_string(shown->output.size()) + " output lines in " +
                             std::to_string(runSeconds).substr(0, 4) + " s)";
    const std::string idleWhat = "the same heartbeat, window shown and idle, 1 s";
    return {
        {"window.child_run.gui_gap.max", "longest gap of a 5 ms heartbeat while " + what, "ms",
         gap.max, idleWhat, idle.max, 100},
        {"window.child_run.gui_gap.p99", "99th percentile heartbeat gap during the child run", "ms",
         gap.p99, idleWhat, idle.p99, 0},
    };
}

} // namespace kiln::bench
