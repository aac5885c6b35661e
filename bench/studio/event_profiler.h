// SPDX-License-Identifier: MIT
/// \file
/// Where the GUI thread's time goes: BenchApplication times every event Qt delivers (a paint, a
/// timer, a queued slot call such as a snapshot arriving) and remembers the slow ones with the
/// Studio panel they were for, so a stall of the heartbeat can be traced to what ran during it.
#pragma once

#include <QApplication>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::bench {

/// A steady clock in ns shared by the heartbeat, the profiler and the panel clock.
inline int64_t benchNowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// One event delivered on the GUI thread.
struct EventRecord {
    int64_t startNs = 0;
    int64_t durationNs = 0;
    int depth = 0;        ///< 0 = dispatched by the event loop, 1+ = sent from inside another event
    int type = 0;         ///< QEvent::Type
    std::string receiver; ///< class name, and object name when it has one
    std::string panel;    ///< id of the Studio panel the receiver belongs to; "" when none
    int64_t endNs() const { return startNs + durationNs; }
};

/// A QApplication whose notify() times each event of the GUI thread while recording is on.
class BenchApplication final : public QApplication {
public:
    BenchApplication(int& argc, char** argv);

    /// Starts recording the events that take at least \p thresholdNs (older records dropped).
    void startRecording(int64_t thresholdNs);
    /// Stops recording and hands the records over (in the order the events ended).
    std::vector<EventRecord> stopRecording();

    bool notify(QObject* receiver, QEvent* event) override;

    static BenchApplication* instance();

private:
    bool m_recording = false;
    int m_depth = 0;
    int64_t m_thresholdNs = 0;
    std::vector<EventRecord> m_records;
};

/// "Paint", "MetaCall", ... for a QEvent::Type.
std::string eventTypeName(int type);
/// The id of the Studio panel \p object is part of; "" when none.
std::string panelOf(const QObject* object);

/// Total ms of the records of \p type per panel ("" = outside every panel), largest first.
std::vector<std::pair<std::string, double>> msPerPanel(const std::vector<EventRecord>& records,
                                                       int type);

} // namespace kiln::bench
