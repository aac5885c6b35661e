// SPDX-License-Identifier: MIT
// The Timeline panel on real `kiln run` traces: the layout places every compile and launch once,
// its range queries and pixel merging agree with brute force, the Chrome trace has one event per
// launch and compile with exact times, and the panel selects kernels, compiles and time ranges
// from mouse input, keeps its zoom when a live run grows, and exports the run.
#include "chrome_trace.h"
#include "selection.h"
#include "studio_fixture.h"
#include "timeline_layout.h"
#include "timeline_panel.h"
#include "timeline_view.h"
#include "trace_session.h"

#include <QFile>
#include <QHelpEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest>
#include <random>
#include <set>

using namespace kiln;
using namespace kiln::views;

namespace {

std::set<std::pair<int, uint32_t>> overlappingBruteForce(const TimelineLane& lane, int64_t start,
                                                         int64_t end) {
    std::set<std::pair<int, uint32_t>> out;
    for (const TimelineSpan& s : lane.spans.spans()) {
        bool instant = s.endNs == s.startNs;
        bool hit = instant ? (s.startNs >= start && s.startNs < end)
                           : (s.startNs < end && s.endNs > start);
        if (hit) out.insert({static_cast<int>(s.kind), s.index * 64 + s.phase});
    }
    return out;
}

int firstLaunchLane(const TimelineLayout& layout) {
    for (size_t i = 0; i < layout.lanes().size(); ++i)
        if (layout.lanes()[i].kind == LaneKind::Launches) return static_cast<int>(i);
    return -1;
}

} // namespace

class TimelineTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    SnapshotPtr m_snapshot;
    SnapshotPtr m_autotuned; ///< max-autotune run of the modes workload

    /// A panel over \p snapshot, 1200x500, shown; `ready` once its layout arrived.
    struct Fixture {
        TraceSession session;
        Selection selection;
        std::unique_ptr<TimelinePanel> panel;
        bool ready = false;
        explicit Fixture(const SnapshotPtr& snapshot) {
            selection.selectRun(snapshot->run.id);
            panel = std::make_unique<TimelinePanel>(session, selection);
            panel->resize(1200, 500);
            panel->show();
            ready = show(snapshot);
        }
        /// Hands \p snapshot to the selection and waits for the panel to lay it out.
        bool show(const SnapshotPtr& snapshot) {
            QSignalSpy shown(panel.get(), &TimelinePanel::timelineShown);
            selection.setSnapshot(snapshot);
            return shown.wait(10000) && view()->timeline()->snapshot() == snapshot;
        }
        TimelineView* view() const { return panel->view(); }
    };

private slots:
    void initTestCase() {
        QString trace = testing::graphBreaksTrace(m_dir.path());
        QVERIFY(!trace.isEmpty());
        m_snapshot = testing::readSnapshot(trace, 1);
        QVERIFY(m_snapshot);
        QVERIFY(!m_snapshot->launches.empty());
        QString modes = testing::compareModesTrace(m_dir.path());
        QVERIFY(!modes.isEmpty());
        m_autotuned = testing::readSnapshot(modes, 2);
        QVERIFY(m_autotuned);
    }

    void layoutPlacesCompilesAndEveryLaunchOnce() {
        TimelineLayout layout(m_snapshot);
        const RunSnapshot& s = *m_snapshot;
        QVERIFY(layout.lanes().size() >= 2);
        const TimelineLane& compiles = layout.lanes()[0];
        QCOMPARE(compiles.label, QStringLiteral("Compiles"));
        size_t compileSpans = 0, phaseSpans = 0, expectedPhases = 0;
        for (const trace::CompileRow& c : s.compiles)
            expectedPhases += c.phases.size();
        for (const TimelineSpan& span : compiles.spans.spans()) {
            if (span.kind == SpanKind::Phase) ++phaseSpans;
            if (span.kind != SpanKind::Compile) continue;
            ++compileSpans;
            const trace::CompileRow& c = s.compiles[span.index];
            QCOMPARE(span.startNs, c.startNs);
            QCOMPARE(span.endNs, c.startNs + c.durationNs.value_or(0));
            QVERIFY(layout.spanName(span).contains(QString::fromStdString(c.compileId)));
        }
        QCOMPARE(compileSpans, s.compiles.size());
        QCOMPARE(phaseSpans, expectedPhases);

        std::vector<uint32_t> placed;
        std::set<int64_t> graphs;
        for (const TimelineLane& lane : layout.lanes()) {
            if (lane.kind != LaneKind::Launches) continue;
            QVERIFY2(lane.label.startsWith("graph "), qPrintable(lane.label));
            QVERIFY(graphs.insert(lane.graphId).second); // one lane per graph
            for (const TimelineSpan& span : lane.spans.spans()) {
                placed.push_back(span.index);
                const trace::KernelLaunchRow& l = s.launches[span.index];
                QCOMPARE(span.startNs, l.startNs);
                QCOMPARE(span.endNs, l.endNs);
                const KernelRecord* k = s.kernel(l.kernelId);
                QVERIFY(k);
                QCOMPARE(k->kernel.graphId, lane.graphId);
                // Named by graph id, as the Compiles tree and `kiln export-diagram` do.
                QCOMPARE(lane.label, QStringLiteral("graph %1 · %2")
                                         .arg(lane.graphId)
                                         .arg(QString::fromStdString(k->kernel.compileId)));
            }
        }
        std::sort(placed.begin(), placed.end());
        QCOMPARE(placed.size(), s.launches.size());
        for (size_t i = 0; i < placed.size(); ++i)
            QCOMPARE(placed[i], static_cast<uint32_t>(i));
        QCOMPARE(layout.launchCount(), s.launches.size());
        int64_t lastLaunchEnd = 0;
        for (const trace::KernelLaunchRow& l : s.launches)
            lastLaunchEnd = std::max(lastLaunchEnd, l.endNs);
        QVERIFY(layout.extentNs() >= lastLaunchEnd);
    }

    void gpuLaunchesGetALaneOfTheirOwnPerDevice() {
        // The same graph's launches on the host and on cuda:0 (CUPTI's device times): two
        // lanes, the host's first, the device named in the label.
        auto mixed = std::make_shared<RunSnapshot>(*m_snapshot);
        const size_t hostLaunches = mixed->launches.size();
        for (size_t i = 0; i < hostLaunches; ++i) {
            trace::KernelLaunchRow l = mixed->launches[i];
            l.id += 1000000;
            l.device = "cuda:0";
            l.grid = "(4096, 1, 1)";
            l.block = "(256, 1, 1)";
            mixed->launches.push_back(l);
        }
        TimelineLayout layout(mixed);
        QCOMPARE(layout.launchCount(), mixed->launches.size());
        std::map<int64_t, std::vector<QString>> devicesOfGraph;
        for (const TimelineLane& lane : layout.lanes()) {
            if (lane.kind != LaneKind::Launches) continue;
            devicesOfGraph[lane.graphId].push_back(lane.device);
            QCOMPARE(lane.label.endsWith(QStringLiteral(" · cuda:0")),
                     lane.device == QStringLiteral("cuda:0"));
            for (const TimelineSpan& span : lane.spans.spans()) {
                const std::string& device = mixed->launches[span.index].device;
                QCOMPARE(QString::fromStdString(device.empty() ? "cpu" : device), lane.device);
            }
        }
        for (const auto& [graph, devices] : devicesOfGraph) {
            QCOMPARE(devices.size(), size_t(2));
            QCOMPARE(devices[0], QStringLiteral("cpu"));
            QCOMPARE(devices[1], QStringLiteral("cuda:0"));
        }
    }

    void aRunningCompileLastsAsFarAsTheRunHasGot() {
        auto live = std::make_shared<RunSnapshot>(*m_snapshot);
        trace::CompileRow& c = live->compiles.front();
        c.durationNs.reset();
        c.status.clear();
        TimelineLayout layout(live);
        int64_t latest = 0;
        for (const trace::KernelLaunchRow& l : live->launches)
            latest = std::max(latest, l.endNs);
        for (const TimelineSpan& span : layout.lanes()[0].spans.spans())
            if (span.kind == SpanKind::Compile && span.index == 0) {
                QCOMPARE(span.startNs, c.startNs);
                QVERIFY(span.endNs >= latest);
                QVERIFY(layout.spanName(span).contains("compiling"));
            }
    }

    void autotuningAndPassesNestUnderCompiles() {
        TimelineLayout layout(m_autotuned);
        const TimelineLane& compiles = layout.lanes()[0];
        int passes = 0, autotunes = 0;
        for (const TimelineSpan& span : compiles.spans.spans()) {
            passes += span.kind == SpanKind::Pass;
            autotunes += span.kind == SpanKind::Autotune;
            if (span.kind == SpanKind::Compile) QCOMPARE(span.row, uint8_t(0));
            if (span.kind == SpanKind::Pass || span.kind == SpanKind::Autotune)
                QVERIFY(span.row >= 2);
        }
        QVERIFY(passes > 0);
        QVERIFY(autotunes > 0); // max-autotune measured candidates
        QCOMPARE(compiles.rows, 4);
    }

    void rangeQueryMatchesBruteForce() {
        for (const SnapshotPtr& snapshot : {m_snapshot, m_autotuned}) {
            TimelineLayout layout(snapshot);
            std::mt19937_64 rng(1);
            int64_t extent = layout.extentNs();
            for (const TimelineLane& lane : layout.lanes()) {
                std::vector<std::pair<int64_t, int64_t>> ranges = {{0, extent + 1}, {0, 1}};
                for (const TimelineSpan& s : lane.spans.spans()) { // exact edges
                    ranges.push_back({s.startNs, s.endNs});
                    ranges.push_back({s.endNs, s.endNs + 1});
                    ranges.push_back({s.startNs - 1, s.startNs});
                }
                for (int i = 0; i < 200; ++i) {
                    int64_t a = static_cast<int64_t>(rng() % static_cast<uint64_t>(extent + 1));
                    int64_t b =
                        a + 1 +
                        static_cast<int64_t>(rng() % static_cast<uint64_t>(extent / 10 + 1));
                    ranges.push_back({a, b});
                }
                for (auto [a, b] : ranges) {
                    std::set<std::pair<int, uint32_t>> found;
                    lane.spans.forEachOverlapping(a, b, [&](const TimelineSpan& s) {
                        QVERIFY(found.insert({static_cast<int>(s.kind), s.index * 64 + s.phase})
                                    .second);
                    });
                    QCOMPARE(found, overlappingBruteForce(lane, a, b));
                }
            }
        }
    }

    void kernelStatsInARangeMatchBruteForce() {
        TimelineLayout layout(m_autotuned);
        const RunSnapshot& s = *m_autotuned;
        int64_t extent = layout.extentNs();
        for (auto [a, b] : {std::pair<int64_t, int64_t>{0, extent + 1},
                            {extent / 2, extent},
                            {extent - extent / 50, extent},
                            {0, 1}}) {
            std::map<int64_t, std::pair<int64_t, int64_t>> expected; // kernel -> launches, ns
            for (const trace::KernelLaunchRow& l : s.launches)
                if (l.startNs < b && l.endNs > a) {
                    ++expected[l.kernelId].first;
                    expected[l.kernelId].second += std::min(l.endNs, b) - std::max(l.startNs, a);
                }
            std::vector<KernelRangeStats> stats = kernelStatsInRange(layout, a, b);
            QCOMPARE(stats.size(), expected.size());
            for (const KernelRangeStats& k : stats) {
                QCOMPARE(k.launches, expected[k.kernelId].first);
                QCOMPARE(k.totalNs, expected[k.kernelId].second);
            }
        }
        // The whole run: every launch, and each kernel's total as the kernels table has it.
        for (const KernelRangeStats& k : kernelStatsInRange(layout, 0, extent + 1)) {
            QCOMPARE(k.launches, s.kernel(k.kernelId)->launches.count);
            QCOMPARE(k.totalNs, s.kernel(k.kernelId)->launches.totalNs);
        }
    }

    void pixelMergingKeepsCounts() {
        TimelineLayout layout(m_snapshot);
        int64_t extent = layout.extentNs();
        bool merged = false;
        for (int width : {8, 64, 1000, 20000}) {
            for (double from : {0.0, extent / 3.0}) {
                TimeWindow window{from, (extent - from) / width, width};
                for (const TimelineLane& lane : layout.lanes()) {
                    if (lane.kind != LaneKind::Launches) continue;
                    auto blocks = layout.launchBlocks(lane, window, -1);
                    int total = 0;
                    for (const LaunchBlock& b : blocks) {
                        total += b.count;
                        QVERIFY(b.x1 > b.x0);
                        QVERIFY(b.busy > 0 && b.busy <= 1);
                        if (b.count > 1) {
                            merged = true;
                            QCOMPARE(b.x1 - b.x0, 1.0);
                        }
                    }
                    auto expected = overlappingBruteForce(
                        lane, static_cast<int64_t>(std::floor(window.startNs)),
                        static_cast<int64_t>(std::ceil(window.endNs())));
                    QCOMPARE(static_cast<size_t>(total), expected.size());
                }
            }
        }
        QVERIFY(merged); // 8 pixels for the whole run must merge launches
    }

    void chromeTraceHasEveryLaunchAndCompile() {
        for (const SnapshotPtr& snapshot : {m_snapshot, m_autotuned}) {
            QJsonParseError error;
            QJsonDocument doc = QJsonDocument::fromJson(chromeTraceJson(*snapshot), &error);
            QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
            QCOMPARE(doc.object().value("displayTimeUnit").toString(), QStringLiteral("ms"));
            QJsonArray events = doc.object().value("traceEvents").toArray();
            std::map<QString, const trace::CompileRow*> compiles;
            for (const trace::CompileRow& c : snapshot->compiles)
                compiles[QString::fromStdString(c.compileId)] = &c;
            std::set<int> namedThreads, usedThreads;
            size_t launches = 0, compileEvents = 0;
            for (const QJsonValue& v : events) {
                QJsonObject e = v.toObject();
                QCOMPARE(e.value("pid").toInteger(), static_cast<qint64>(snapshot->run.id));
                QString ph = e.value("ph").toString(), cat = e.value("cat").toString();
                if (ph == "M" && e.value("name").toString() == "thread_name")
                    namedThreads.insert(e.value("tid").toInt());
                if (ph != "X") continue;
                usedThreads.insert(e.value("tid").toInt());
                QJsonObject args = e.value("args").toObject();
                if (cat == "launch") {
                    const trace::KernelLaunchRow& l = snapshot->launches[launches++];
                    QCOMPARE(args.value("kernel_id").toInteger(), static_cast<qint64>(l.kernelId));
                    QCOMPARE(e.value("ts").toDouble(), l.startNs / 1000.0);
                    QCOMPARE(e.value("dur").toDouble(), l.durationNs() / 1000.0);
                    const KernelRecord* k = snapshot->kernel(l.kernelId);
                    QCOMPARE(e.value("name").toString(), QString::fromStdString(k->kernel.name));
                    QCOMPARE(args.value("kind").toString(), QString::fromStdString(k->kernel.kind));
                } else if (cat == "compile") {
                    ++compileEvents;
                    const trace::CompileRow* c = compiles[args.value("compile_id").toString()];
                    QVERIFY(c);
                    QCOMPARE(e.value("ts").toDouble(), c->startNs / 1000.0);
                    QCOMPARE(e.value("dur").toDouble(), *c->durationNs / 1000.0);
                    QCOMPARE(args.value("status").toString(), QString::fromStdString(c->status));
                }
            }
            QCOMPARE(launches, snapshot->launches.size());
            QCOMPARE(compileEvents, snapshot->compiles.size());
            for (int tid : usedThreads)
                QVERIFY2(namedThreads.count(tid), qPrintable(QString::number(tid)));
        }
    }

    void clickOnLaunchSelectsItsKernel() {
        Fixture f(m_snapshot);
        QVERIFY(f.ready);
        const TimelineLayout& layout = *f.view()->timeline();
        int lane = firstLaunchLane(layout);
        QVERIFY(lane >= 0);
        const TimelineSpan span = layout.lanes()[lane].spans.spans().front();
        int64_t width = std::max<int64_t>(span.endNs - span.startNs, 1000);
        f.view()->setVisibleRange(span.startNs - width, span.endNs + width);
        QPoint at(static_cast<int>(f.view()->xOfTime((span.startNs + span.endNs) / 2.0)),
                  f.view()->rowMiddle(lane, 0));
        QHelpEvent help(QEvent::ToolTip, at, f.view()->viewport()->mapToGlobal(at));
        QApplication::sendEvent(f.view()->viewport(), &help);
        QVERIFY2(QToolTip::text().contains(layout.spanName(span)), qPrintable(QToolTip::text()));
        QVERIFY(QToolTip::text().contains("duration"));
        QVERIFY(!QToolTip::text().contains("launches in this pixel"));
        QTest::mouseClick(f.view()->viewport(), Qt::LeftButton, {}, at);
        int64_t kernelId = m_snapshot->launches[span.index].kernelId;
        QCOMPARE(f.selection.state().kernelId, kernelId);
        QCOMPARE(f.selection.state().compileId,
                 QString::fromStdString(m_snapshot->kernel(kernelId)->kernel.compileId));
    }

    void tooltipOfAMergedColumnCountsItsLaunches() {
        Fixture f(m_autotuned);
        QVERIFY(f.ready);
        TimelineView* v = f.view();
        const TimelineLayout& layout = *v->timeline();
        int lane = firstLaunchLane(layout);
        TimeWindow window{v->visibleStartNs(), v->nsPerPixel(),
                          v->viewport()->width() - TimelineView::kLabelWidth};
        auto blocks = layout.launchBlocks(layout.lanes()[lane], window, -1);
        auto merged = std::find_if(blocks.begin(), blocks.end(),
                                   [](const LaunchBlock& b) { return b.count > 1; });
        QVERIFY(merged != blocks.end()); // five calls of the graph within a few pixels
        QPoint at(TimelineView::kLabelWidth + static_cast<int>(merged->x0), v->rowMiddle(lane, 0));
        QHelpEvent help(QEvent::ToolTip, at, v->viewport()->mapToGlobal(at));
        QApplication::sendEvent(v->viewport(), &help);
        QVERIFY2(QToolTip::text().contains(
                     QStringLiteral("%1 launches in this pixel").arg(merged->count)),
                 qPrintable(QToolTip::text()));
    }

    void clickOnCompileSelectsIt() {
        Fixture f(m_snapshot);
        QVERIFY(f.ready);
        const trace::CompileRow& c = m_snapshot->compiles.back();
        int64_t end = c.startNs + *c.durationNs;
        f.view()->setVisibleRange(c.startNs - (end - c.startNs), end + (end - c.startNs));
        QPoint at(static_cast<int>(f.view()->xOfTime((c.startNs + end) / 2.0)),
                  f.view()->rowMiddle(0, 0));
        QTest::mouseClick(f.view()->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(f.selection.state().compileId, QString::fromStdString(c.compileId));
    }

    void dragOnRulerSelectsARange() {
        Fixture f(m_snapshot);
        QVERIFY(f.ready);
        QSignalSpy spy(f.panel.get(), &TimelinePanel::rangeSelected);
        TimelineView* v = f.view();
        QPoint from(TimelineView::kLabelWidth + 100, 10), to(TimelineView::kLabelWidth + 400, 10);
        qint64 expectedStart = std::llround(v->timeOfX(from.x()));
        qint64 expectedEnd = std::llround(v->timeOfX(to.x()));
        QTest::mousePress(v->viewport(), Qt::LeftButton, {}, from);
        QTest::mouseMove(v->viewport(), QPoint(from.x() + 50, 10));
        QTest::mouseMove(v->viewport(), to);
        QTest::mouseRelease(v->viewport(), Qt::LeftButton, {}, to);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toLongLong(), expectedStart);
        QCOMPARE(spy.at(0).at(1).toLongLong(), expectedEnd);
        QCOMPARE(v->selectedRange(), std::make_pair(expectedStart, expectedEnd));
        QTest::keyClick(v, Qt::Key_Escape);
        QCOMPARE(spy.count(), 2);
        QCOMPARE(spy.at(1).at(0).toLongLong(), 0LL);
        QCOMPARE(spy.at(1).at(1).toLongLong(), 0LL);

        // Shift+drag over the lanes, then a click on the ruler clears it.
        QPoint a(TimelineView::kLabelWidth + 600, 200), b(TimelineView::kLabelWidth + 300, 220);
        QTest::mousePress(v->viewport(), Qt::LeftButton, Qt::ShiftModifier, a);
        QTest::mouseMove(v->viewport(), b);
        QTest::mouseRelease(v->viewport(), Qt::LeftButton, Qt::ShiftModifier, b);
        QCOMPARE(spy.count(), 3);
        QCOMPARE(spy.at(2).at(0).toLongLong(), std::llround(v->timeOfX(b.x())));
        QCOMPARE(spy.at(2).at(1).toLongLong(), std::llround(v->timeOfX(a.x())));
        QTest::mouseClick(v->viewport(), Qt::LeftButton, {},
                          QPoint(TimelineView::kLabelWidth + 50, 10));
        QCOMPARE(spy.count(), 4);
        QCOMPARE(spy.at(3).at(1).toLongLong(), 0LL);
    }

    void wheelAndKeysZoomAndPan() {
        Fixture f(m_snapshot);
        QVERIFY(f.ready);
        TimelineView* v = f.view();
        auto wheel = [&](QPointF at, int delta, Qt::KeyboardModifiers modifiers) {
            QWheelEvent e(at, v->viewport()->mapToGlobal(at), {}, QPoint(0, delta), Qt::NoButton,
                          modifiers, Qt::NoScrollPhase, false);
            QApplication::sendEvent(v->viewport(), &e);
        };
        // Zooming in around the cursor keeps the time under it in place.
        QPointF cursor(TimelineView::kLabelWidth + 700, 200);
        double under = v->timeOfX(cursor.x());
        double scale = v->nsPerPixel();
        wheel(cursor, 120, Qt::NoModifier);
        QVERIFY(v->nsPerPixel() < scale);
        QCOMPARE(v->timeOfX(cursor.x()), under);
        wheel(cursor, 240, Qt::ControlModifier);
        QCOMPARE(v->timeOfX(cursor.x()), under);
        // Shift+wheel pans at the same zoom; arrows pan, 0 fits, +/- zoom.
        double zoomed = v->nsPerPixel(), start = v->visibleStartNs();
        wheel(cursor, -120, Qt::ShiftModifier);
        QVERIFY(v->visibleStartNs() > start);
        QCOMPARE(v->nsPerPixel(), zoomed);
        start = v->visibleStartNs();
        QTest::keyClick(v, Qt::Key_Left);
        QVERIFY(v->visibleStartNs() < start);
        QTest::keyClick(v, Qt::Key_Minus);
        QVERIFY(v->nsPerPixel() > zoomed);
        QTest::keyClick(v, Qt::Key_0);
        QCOMPARE(v->visibleStartNs(), 0.0);
        QVERIFY(v->visibleEndNs() >= v->timeline()->extentNs());
        // Dragging the lanes pans back in time.
        v->setVisibleRange(v->timeline()->extentNs() / 2.0, v->timeline()->extentNs());
        start = v->visibleStartNs();
        QTest::mousePress(v->viewport(), Qt::LeftButton, {}, QPoint(600, 300));
        QTest::mouseMove(v->viewport(), QPoint(700, 300));
        QTest::mouseRelease(v->viewport(), Qt::LeftButton, {}, QPoint(700, 300));
        QCOMPARE(v->visibleStartNs(), start - 100 * v->nsPerPixel());
    }

    void keepsZoomWhenTheRunGrows() {
        Fixture f(m_snapshot);
        QVERIFY(f.ready);
        TimelineView* v = f.view();
        int64_t extent = v->timeline()->extentNs();
        auto grownBy = [&](int64_t more) {
            auto grown = std::make_shared<RunSnapshot>(*f.selection.snapshot());
            trace::KernelLaunchRow l = grown->launches.back();
            l.id += 1;
            l.startNs = v->timeline()->extentNs() + more - 1000;
            l.endNs = l.startNs + 1000;
            grown->launches.push_back(l);
            return SnapshotPtr(grown);
        };
        // Zoomed into the middle: stays there.
        v->setVisibleRange(extent / 4.0, extent / 2.0);
        QVERIFY(f.show(grownBy(extent / 2)));
        QCOMPARE(v->visibleStartNs(), extent / 4.0);
        QCOMPARE(v->visibleEndNs(), extent / 2.0);
        // Showing the end: follows it at the same zoom.
        int64_t now = v->timeline()->extentNs();
        v->setVisibleRange(now - extent / 4.0, now + 1000.0);
        double span = v->visibleEndNs() - v->visibleStartNs();
        QVERIFY(f.show(grownBy(extent / 3)));
        QVERIFY(v->visibleEndNs() >= v->timeline()->extentNs());
        QCOMPARE(v->visibleEndNs() - v->visibleStartNs(), span);
        // Fitted: stays fitted.
        v->fit();
        QVERIFY(f.show(grownBy(extent)));
        QCOMPARE(v->visibleStartNs(), 0.0);
        QVERIFY(v->visibleEndNs() >= v->timeline()->extentNs());
    }

    void exportsAChromeTraceFile() {
        Fixture f(m_snapshot);
        QVERIFY(f.ready);
        QString path = m_dir.filePath("run.trace.json");
        QString error;
        QVERIFY2(f.panel->exportChromeTrace(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
        QVERIFY(doc.object().value("traceEvents").toArray().size() >
                static_cast<qsizetype>(m_snapshot->launches.size()));
        QVERIFY(!f.panel->exportChromeTrace(m_dir.filePath("no/such/dir/x.json"), &error));
        QVERIFY(!error.isEmpty());
    }

    void exportsOnlyTheSelectedRangeUnderTheWorkloadsName() {
        // Issue 14, finding 9: the export ignored the selected range and was named
        // run-2.trace.json whatever the workload.
        Fixture f(m_snapshot);
        QVERIFY(f.ready);
        QCOMPARE(chromeTraceFileName(*m_snapshot, false),
                 QString("graph_breaks-run-%1.trace.json").arg(m_snapshot->run.id));
        QCOMPARE(chromeTraceFileName(*m_snapshot, true),
                 QString("graph_breaks-run-%1-range.trace.json").arg(m_snapshot->run.id));
        QVERIFY(!f.panel->selectedRange());
        // The middle third of the run's launches, by time.
        QVERIFY(m_snapshot->launches.size() >= 3);
        std::vector<int64_t> starts;
        for (const trace::KernelLaunchRow& l : m_snapshot->launches)
            starts.push_back(l.startNs);
        std::sort(starts.begin(), starts.end());
        const int64_t from = starts[starts.size() / 3], to = starts[2 * starts.size() / 3];
        QVERIFY(to > from);
        f.view()->setSelectedRange(from, to);
        QCOMPARE(f.panel->selectedRange()->startNs, from);
        QString path = m_dir.filePath("range.trace.json");
        QString error;
        QVERIFY2(f.panel->exportChromeTrace(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject doc = QJsonDocument::fromJson(file.readAll()).object();
        size_t launches = 0, expected = 0;
        for (const trace::KernelLaunchRow& l : m_snapshot->launches)
            expected += l.startNs < to && l.startNs + l.durationNs() > from;
        for (const QJsonValue& v : doc.value("traceEvents").toArray()) {
            QJsonObject e = v.toObject();
            if (e.value("ph").toString() != "X") continue;
            const double start = e.value("ts").toDouble() * 1000,
                         end = start + e.value("dur").toDouble() * 1000;
            QVERIFY2(start < to + 1 && end > from - 1, qPrintable(e.value("name").toString()));
            launches += e.value("cat").toString() == "launch";
        }
        QCOMPARE(launches, expected);
        QVERIFY(launches < m_snapshot->launches.size());
        QVERIFY(doc.value("otherData").toObject().value("range").toString().endsWith("of the run"));
    }

    void rulerAndTooltipTimesShowTheirResolution() {
        // Issue 14, finding 9: zoomed in, the ruler read "1.41 s" six times, and a 74.8 µs
        // kernel's tooltip said "start 1.42 s".
        QCOMPARE(formatNsAt(63.42e6, 20e3), QString("63.42 ms"));
        QCOMPARE(formatNsAt(63.44e6, 20e3), QString("63.44 ms"));
        QCOMPARE(formatNsAt(1.4101e9, 1e6), QString("1.410 s"));
        QCOMPARE(formatNsAt(1.420123e9, 7.48e3), QString("1.420123 s"));
        QCOMPARE(formatNsAt(500, 100), QString("500 ns"));
        QCOMPARE(formatNsAt(2.5e6, 1e6), QString("3 ms"));
        QCOMPARE(formatNsAt(0, 5e6), QString("0 ms"));
    }

    void theHintLeavesTheTracksTheirHeightInAShortDock() {
        // Issue 14, finding 9: at 1600x1000 the Timeline dock is short, and the hint's own row
        // below the tracks sat on the first track's label. It is in the toolbar now.
        Fixture f(m_snapshot);
        QVERIFY(f.ready);
        f.panel->resize(1200, 90);
        QLabel* hint = nullptr;
        for (QLabel* label : f.panel->findChildren<QLabel*>())
            if (label->text().contains("Drag on the ruler")) hint = label;
        QVERIFY(hint);
        QTRY_VERIFY(hint->isVisible());
        QRect hintRect(hint->mapTo(f.panel.get(), QPoint(0, 0)), hint->size());
        QRect viewRect(f.view()->mapTo(f.panel.get(), QPoint(0, 0)), f.view()->size());
        QVERIFY2(!hintRect.intersects(viewRect), "the hint overlaps the tracks");
        QVERIFY(hintRect.bottom() < viewRect.top());
    }

    void screenshots() {
        for (const SnapshotPtr& snapshot : {m_snapshot, m_autotuned}) {
            Fixture f(snapshot);
            QVERIFY(f.ready);
            const TimelineLayout& layout = *f.view()->timeline();
            int lane = firstLaunchLane(layout);
            f.selection.selectKernel(layout.kernelIdOf(layout.lanes()[lane].spans.spans().front()));
            QCOMPARE(f.selection.state().kernelId,
                     layout.kernelIdOf(layout.lanes()[lane].spans.spans().front()));
            QString name = snapshot == m_snapshot ? "graph-breaks" : "autotune";
            QVERIFY(f.panel->grab().save(QStringLiteral("/tmp/timeline-%1.png").arg(name)));
            // Zoomed to the last compile and the launches after it, with a range selected.
            const trace::CompileRow& c = snapshot->compiles.back();
            f.view()->setVisibleRange(c.startNs, layout.extentNs());
            QPoint from(TimelineView::kLabelWidth + 500, 10),
                to(TimelineView::kLabelWidth + 800, 10);
            QTest::mousePress(f.view()->viewport(), Qt::LeftButton, {}, from);
            QTest::mouseMove(f.view()->viewport(), to);
            QTest::mouseRelease(f.view()->viewport(), Qt::LeftButton, {}, to);
            QVERIFY(f.panel->grab().save(QStringLiteral("/tmp/timeline-%1-zoomed.png").arg(name)));
        }
    }
};

QTEST_MAIN(TimelineTest)
#include "tst_timeline.moc"
