// SPDX-License-Identifier: MIT
#include "event_profiler.h"

#include "panel.h"

#include <QEvent>
#include <QMetaEnum>
#include <QPointer>
#include <QThread>
#include <algorithm>
#include <map>

namespace kiln::bench {

BenchApplication::BenchApplication(int& argc, char** argv)
    : QApplication(argc, argv) {}

BenchApplication* BenchApplication::instance() {
    return static_cast<BenchApplication*>(QCoreApplication::instance());
}

void BenchApplication::startRecording(int64_t thresholdNs) {
    m_records.clear();
    m_thresholdNs = thresholdNs;
    m_recording = true;
}

std::vector<EventRecord> BenchApplication::stopRecording() {
    m_recording = false;
    return std::move(m_records);
}

bool BenchApplication::notify(QObject* receiver, QEvent* event) {
    // Only the GUI thread's events: the session's worker thread delivers its own.
    if (!m_recording || QThread::currentThread() != thread())
        return QApplication::notify(receiver, event);
    // The event may be deleted, and the receiver too (deleteLater), by the time notify returns.
    const int type = event->type();
    QPointer<QObject> guard(receiver);
    const int depth = m_depth++;
    const int64_t start = benchNowNs();
    bool handled = QApplication::notify(receiver, event);
    const int64_t duration = benchNowNs() - start;
    --m_depth;
    if (duration >= m_thresholdNs && m_recording) {
        EventRecord r{start, duration, depth, type, "(deleted)", ""};
        if (guard) {
            r.receiver = guard->metaObject()->className();
            if (!guard->objectName().isEmpty())
                r.receiver += " '" + guard->objectName().toStdString() + "'";
            r.panel = panelOf(guard);
        }
        m_records.push_back(std::move(r));
    }
    return handled;
}

std::string eventTypeName(int type) {
    const char* name = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
    return name ? name : std::to_string(type);
}

std::string panelOf(const QObject* object) {
    for (; object; object = object->parent())
        if (auto* panel = qobject_cast<const views::Panel*>(object))
            return panel->objectName().toStdString();
    return {};
}

std::vector<std::pair<std::string, double>> msPerPanel(const std::vector<EventRecord>& records,
                                                       int type) {
    std::map<std::string, double> sums;
    for (const EventRecord& r : records)
        if (r.type == type) sums[r.panel] += r.durationNs / 1e6;
    std::vector<std::pair<std::string, double>> out(sums.begin(), sums.end());
    std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.second > b.second; });
    return out;
}

} // namespace kiln::bench
