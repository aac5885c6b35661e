// SPDX-License-Identifier: MIT
#include "chrome_trace.h"

#include "timeline_layout.h"
#include "trace/json_text.h"

#include <QFileInfo>
#include <QSaveFile>
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <unordered_map>

namespace kiln::views {

namespace {

// Thread ids of the lanes. Passes get their own thread: their times are measured, the phases'
// are laid end to end, so nesting one inside the other could overlap by a few microseconds,
// which Perfetto reports as an import error.
constexpr int kCompilesTid = 1;
constexpr int kPassesTid = 2;
constexpr int kEventsTid = 3;
constexpr int kFirstLaunchTid = 10;

/// Appends \p text as a JSON string literal (the trace layer's quoting).
void appendString(QByteArray& out, const QByteArray& text) {
    out += QByteArray::fromStdString(
        trace::jsonQuoted(std::string_view(text.constData(), static_cast<size_t>(text.size()))));
}
void appendString(QByteArray& out, const QString& text) {
    appendString(out, text.toUtf8());
}

/// Nanoseconds as microseconds with an exact three-digit fraction ("1234.567").
void appendMicros(QByteArray& out, int64_t ns) {
    char text[32];
    const char* sign = ns < 0 ? "-" : "";
    uint64_t magnitude = ns < 0 ? static_cast<uint64_t>(-(ns + 1)) + 1 : static_cast<uint64_t>(ns);
    std::snprintf(text, sizeof text, "%s%" PRIu64 ".%03" PRIu64, sign, magnitude / 1000,
                  magnitude % 1000);
    out += text;
}

/// A key/value list written as a JSON object's members (values already JSON).
class Args {
public:
    Args& text(const char* key, const QByteArray& value) {
        member(key);
        appendString(m_out, value);
        return *this;
    }
    Args& text(const char* key, const std::string& value) {
        return text(key, QByteArray::fromStdString(value));
    }
    Args& number(const char* key, int64_t value) {
        member(key);
        m_out += QByteArray::number(static_cast<qlonglong>(value));
        return *this;
    }
    QByteArray json() const { return (m_out.isEmpty() ? QByteArray("{") : m_out) + '}'; }

private:
    void member(const char* key) {
        m_out += m_out.isEmpty() ? "{" : ",";
        appendString(m_out, QByteArray(key));
        m_out += ':';
    }
    QByteArray m_out;
};

class EventWriter {
public:
    EventWriter(int64_t pid, std::optional<ChromeTraceRange> range)
        : m_pid(pid)
        , m_range(range) {}

    void metadata(const char* name, int tid, const QString& value) {
        begin();
        m_out += "\"ph\":\"M\",\"name\":\"";
        m_out += name;
        m_out += "\",\"pid\":" + QByteArray::number(static_cast<qlonglong>(m_pid));
        m_out += ",\"tid\":" + QByteArray::number(tid) + ",\"args\":{\"name\":";
        appendString(m_out, value);
        m_out += "}}";
    }
    void sortIndex(int tid, int index) {
        begin();
        m_out += "\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" +
                 QByteArray::number(static_cast<qlonglong>(m_pid)) +
                 ",\"tid\":" + QByteArray::number(tid) +
                 ",\"args\":{\"sort_index\":" + QByteArray::number(index) + "}}";
    }
    /// A complete event, or an instant one when \p durationNs is 0.
    void span(int tid, const QString& name, const char* category, int64_t startNs,
              int64_t durationNs, const Args& args) {
        if (!inRange(startNs, durationNs)) return;
        begin();
        m_out += "\"name\":";
        appendString(m_out, name);
        m_out += ",\"cat\":\"";
        m_out += category;
        m_out += durationNs > 0 ? "\",\"ph\":\"X\",\"ts\":" : "\",\"ph\":\"i\",\"s\":\"t\",\"ts\":";
        appendMicros(m_out, startNs);
        if (durationNs > 0) {
            m_out += ",\"dur\":";
            appendMicros(m_out, durationNs);
        }
        m_out += ",\"pid\":" + QByteArray::number(static_cast<qlonglong>(m_pid)) +
                 ",\"tid\":" + QByteArray::number(tid) + ",\"args\":";
        m_out += args.json();
        m_out += '}';
    }
    /// A launch: \p head is everything before its start time, \p tail what follows its
    /// duration up to the per-launch arguments (both the same for every launch of a kernel).
    void launch(const QByteArray& head, const QByteArray& tail, const trace::KernelLaunchRow& l) {
        if (!inRange(l.startNs, l.durationNs())) return;
        begin();
        m_out += head;
        appendMicros(m_out, l.startNs);
        m_out += ",\"dur\":";
        appendMicros(m_out, l.durationNs());
        m_out += tail;
        m_out += ",\"device\":";
        appendString(m_out, QByteArray::fromStdString(l.device));
        m_out += ",\"grid\":";
        appendString(m_out, QByteArray::fromStdString(l.grid));
        if (!l.block.empty()) {
            m_out += ",\"block\":";
            appendString(m_out, QByteArray::fromStdString(l.block));
        }
        m_out += "}}";
    }
    int64_t pid() const { return m_pid; }
    QByteArray finish(const QByteArray& otherData) {
        return "{\"traceEvents\":[\n" + m_out +
               "\n],\"displayTimeUnit\":\"ms\",\"otherData\":" + otherData + "}\n";
    }

private:
    /// Overlaps the range (an instant: lies in it); everything without a range.
    bool inRange(int64_t startNs, int64_t durationNs) const {
        if (!m_range) return true;
        const int64_t endNs = startNs + std::max<int64_t>(durationNs, 0);
        return durationNs > 0 ? startNs < m_range->endNs && endNs > m_range->startNs
                              : startNs >= m_range->startNs && startNs < m_range->endNs;
    }
    void begin() {
        if (!m_out.isEmpty()) m_out += ",\n";
        m_out += '{';
    }

    int64_t m_pid;
    std::optional<ChromeTraceRange> m_range;
    QByteArray m_out;
};

void writeCompileLane(EventWriter& w, const TimelineLayout& layout, const TimelineLane& lane) {
    const RunSnapshot& snap = *layout.snapshot();
    for (const TimelineSpan& s : lane.spans.spans()) {
        Args args;
        QString compileId = layout.compileIdOf(s);
        if (!compileId.isEmpty()) args.text("compile_id", compileId.toUtf8());
        switch (s.kind) {
        case SpanKind::Compile: {
            const trace::CompileRow& c = snap.compiles[s.index];
            args.text("status", c.finished() ? c.status : std::string("compiling"))
                .text("reason", c.reason);
            if (!c.failure.empty()) args.text("failure", c.failure);
            w.span(kCompilesTid, layout.spanName(s), "compile", s.startNs, s.endNs - s.startNs,
                   args);
            break;
        }
        case SpanKind::Phase:
            w.span(kCompilesTid, layout.spanName(s), "phase", s.startNs, s.endNs - s.startNs, args);
            break;
        case SpanKind::Pass:
        case SpanKind::Autotune:
            w.span(kPassesTid, QString::fromStdString(snap.events[s.index].name),
                   s.kind == SpanKind::Pass ? "pass" : "autotune", s.startNs, s.endNs - s.startNs,
                   args);
            break;
        default:
            break;
        }
    }
}

void writeEventLane(EventWriter& w, const TimelineLayout& layout, const TimelineLane& lane) {
    const RunSnapshot& snap = *layout.snapshot();
    for (const TimelineSpan& s : lane.spans.spans()) {
        const trace::EventRow& e = snap.events[s.index];
        Args args;
        if (!e.compileId.empty()) args.text("compile_id", e.compileId);
        args.text("detail", e.detailJson);
        w.span(kEventsTid, QString::fromStdString(e.name), e.category.c_str(), s.startNs,
               s.endNs - s.startNs, args);
    }
}

using KernelsById = std::unordered_map<int64_t, const KernelRecord*>;

/// The parts of a launch event that only depend on its kernel, written once per kernel: a run
/// has thousands of kernels and can have millions of launches.
struct KernelJson {
    QByteArray head;
    QByteArray tail;
};

KernelJson kernelJson(const EventWriter& w, const KernelRecord* k, int64_t kernelId,
                      LaunchKind kind, int tid) {
    KernelJson json{"\"name\":", ""};
    appendString(json.head, k ? QByteArray::fromStdString(k->kernel.name)
                              : QStringLiteral("kernel %1").arg(kernelId).toUtf8());
    json.head += ",\"cat\":\"launch\",\"ph\":\"X\",\"ts\":";
    json.tail = ",\"pid\":" + QByteArray::number(static_cast<qlonglong>(w.pid())) +
                ",\"tid\":" + QByteArray::number(tid) +
                ",\"args\":{\"kernel_id\":" + QByteArray::number(static_cast<qlonglong>(kernelId)) +
                ",\"kind\":";
    appendString(json.tail, launchKindName(kind).toUtf8());
    if (k) {
        json.tail += ",\"compile_id\":";
        appendString(json.tail, QByteArray::fromStdString(k->kernel.compileId));
    }
    return json;
}

void writeLaunchLane(EventWriter& w, const RunSnapshot& snap, const KernelsById& kernels,
                     const TimelineLane& lane, int tid) {
    std::unordered_map<int64_t, KernelJson> parts;
    for (const TimelineSpan& s : lane.spans.spans()) {
        const trace::KernelLaunchRow& l = snap.launches[s.index];
        auto known = parts.find(l.kernelId);
        if (known == parts.end()) {
            auto k = kernels.find(l.kernelId);
            const KernelRecord* record = k == kernels.end() ? nullptr : k->second;
            known = parts.emplace(l.kernelId, kernelJson(w, record, l.kernelId, s.launchKind, tid))
                        .first;
        }
        w.launch(known->second.head, known->second.tail, l);
    }
}

} // namespace

QByteArray chromeTraceJson(const RunSnapshot& snapshot, std::optional<ChromeTraceRange> range) {
    // The layout only reads the snapshot while this function runs: it need not own it.
    TimelineLayout layout(SnapshotPtr(SnapshotPtr(), &snapshot));
    const trace::RunRow& run = snapshot.run;
    EventWriter w(run.id, range);
    w.metadata(
        "process_name", 0,
        QStringLiteral("run %1: %2 (%3)")
            .arg(run.id)
            .arg(QString::fromStdString(run.workloadPath), QString::fromStdString(run.mode)));
    w.metadata("thread_name", kCompilesTid, QStringLiteral("Compiles"));
    w.metadata("thread_name", kPassesTid, QStringLiteral("Compiler passes"));
    w.sortIndex(kCompilesTid, kCompilesTid);
    w.sortIndex(kPassesTid, kPassesTid);
    KernelsById kernels;
    for (const KernelRecord& k : snapshot.kernels)
        kernels.emplace(k.kernel.kernelId, &k);
    int launchTid = kFirstLaunchTid;
    for (const TimelineLane& lane : layout.lanes()) {
        switch (lane.kind) {
        case LaneKind::Compiles:
            writeCompileLane(w, layout, lane);
            break;
        case LaneKind::Events:
            w.metadata("thread_name", kEventsTid, lane.label);
            w.sortIndex(kEventsTid, kEventsTid);
            writeEventLane(w, layout, lane);
            break;
        case LaneKind::Launches:
            w.metadata("thread_name", launchTid, lane.label);
            w.sortIndex(launchTid, launchTid);
            writeLaunchLane(w, snapshot, kernels, lane, launchTid++);
            break;
        }
    }
    Args other;
    other.text("tool", QByteArray("kiln"))
        .text("workload", run.workloadPath)
        .text("mode", run.mode)
        .text("backend", run.backend)
        .text("device", run.device)
        .text("status", std::string(trace::runStatusName(run.status)));
    if (range)
        other.text("range", QStringLiteral("%1 us - %2 us of the run")
                                .arg(double(range->startNs) / 1e3, 0, 'f', 3)
                                .arg(double(range->endNs) / 1e3, 0, 'f', 3)
                                .toUtf8());
    // The machine the timings belong to, for whoever reads the exported trace later.
    if (run.machine.recorded()) {
        other.text("machine", trace::machineSummary(run.machine));
        if (!run.machine.matmul.empty()) other.text("matmul", trace::matmulSummary(run.machine));
    }
    return w.finish(other.json());
}

QString chromeTraceFileName(const RunSnapshot& snapshot, bool range) {
    QString stem = QFileInfo(QString::fromStdString(snapshot.run.workloadPath)).completeBaseName();
    if (stem.isEmpty()) stem = QStringLiteral("kiln");
    return QStringLiteral("%1-run-%2%3.trace.json")
        .arg(stem)
        .arg(snapshot.run.id)
        .arg(range ? QStringLiteral("-range") : QString());
}

bool writeChromeTrace(const RunSnapshot& snapshot, const QString& path, QString* error,
                      std::optional<ChromeTraceRange> range) {
    QSaveFile file(path);
    if (file.open(QIODevice::WriteOnly) && file.write(chromeTraceJson(snapshot, range)) >= 0 &&
        file.commit())
        return true;
    if (error) *error = file.errorString();
    return false;
}

} // namespace kiln::views
