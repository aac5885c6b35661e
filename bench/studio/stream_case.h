// SPDX-License-Identifier: MIT
/// \file
/// GUI-thread stalls while a run streams: a writer thread appends a live run (launches, output
/// lines, compiles) to the trace in the writer's short transactions while Studio's TraceSession
/// polls it and the timeline and kernels table follow every snapshot. A 5 ms heartbeat timer on
/// the GUI thread records how late it fires.
#pragma once

#include "studio_cases.h"
#include "synthetic_trace.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <atomic>
#include <thread>

namespace kiln::bench {

std::vector<Result> streamCase(const std::string& path, const SyntheticShape& shape,
                               double seconds);

/// The live run: compiles a new graph every 250 ms, calls the compiled graphs a few times every
/// millisecond (about 20,000 launches a second) and prints a line every 50 ms, for \p seconds.
/// The run's pid is this process's, so Studio sees it running and follows it. With
/// \p preloadGraphs, the run first compiles that many graphs back to back (a large model).
class StreamingWriter {
public:
    StreamingWriter(std::string path, SyntheticShape shape, double seconds, int preloadGraphs = 0);
    ~StreamingWriter() { join(); }

    void start();
    void join();
    bool started() const { return m_started; }
    bool finished() const { return m_finished; }
    int64_t launches() const { return m_launches; }
    const std::string& error() const { return m_error; }

private:
    void run();
    void stream();
    int64_t kernelBase(int graph) const { return 1 + int64_t(graph) * m_shape.kernelsPerGraph; }

    std::string m_path;
    SyntheticShape m_shape;
    double m_seconds;
    int m_preloadGraphs;
    std::thread m_thread;
    std::atomic<bool> m_started{false};
    std::atomic<bool> m_finished{false};
    std::atomic<int64_t> m_launches{0};
    std::string m_error;
};

/// Records the gaps between ticks of a 5 ms timer on the GUI thread while the event loop runs.
class Heartbeat {
public:
    struct Gap {
        double ms = 0;
        int64_t endNs = 0; ///< benchNowNs() when the late tick came
        int64_t startNs() const { return endNs - static_cast<int64_t>(ms * 1e6); }
    };

    Heartbeat();
    void start();
    /// Stops the timer; the gaps since start(), in order.
    std::vector<Gap> stop();
    static std::vector<double> millis(const std::vector<Gap>& gaps);

private:
    QTimer m_timer;
    int64_t m_lastNs = 0;
    std::vector<Gap> m_gaps;
};

/// Runs the event loop until \p done() holds, checking every 20 ms.
template <typename Done>
void runEventLoopUntil(Done done) {
    QEventLoop loop;
    QTimer check;
    QObject::connect(&check, &QTimer::timeout, [&] {
        if (done()) loop.quit();
    });
    check.start(20);
    loop.exec();
}

} // namespace kiln::bench
