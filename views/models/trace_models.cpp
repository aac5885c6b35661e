// SPDX-License-Identifier: MIT
#include "trace_models.h"

#include <QFileInfo>

namespace kiln::views {

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

RunsModel::RunsModel(QObject* parent)
    : SnapshotTableModel(parent) {
    using R = trace::RunRow;
    setColumns({
        {"run", [](const R& r) { return QVariant::fromValue<qint64>(r.id); }, {}},
        {"workload", [](const R& r) { return QFileInfo(text(r.workloadPath)).fileName(); },
         [](const R& r) { return text(r.workloadPath); }},
        {"mode", [](const R& r) { return text(r.mode); }, {}},
        {"backend", [](const R& r) { return text(r.backend); }, {}},
        {"device", [](const R& r) { return text(r.device); }, {}},
        {"status", [](const R& r) { return QString(trace::runStatusName(r.status)); },
         [](const R& r) {
             return text(r.errorType.empty() ? "" : r.errorType + ": " + r.errorMessage);
         }},
        {"seconds",
         [](const R& r) {
             return r.endedAtNs ? QVariant(static_cast<double>(*r.endedAtNs - r.startedAtNs) * 1e-9)
                                : QVariant();
         },
         {}},
    });
}

KernelsModel::KernelsModel(QObject* parent)
    : SnapshotTableModel(parent) {
    using K = KernelRecord;
    setColumns({
        {"kernel", [](const K& k) { return text(k.kernel.name); },
         [](const K& k) { return text(k.kernel.launchConfig); }},
        {"kind", [](const K& k) { return text(k.kernel.kind); }, {}},
        {"graph", [](const K& k) { return QVariant::fromValue<qint64>(k.kernel.graphId); }, {}},
        {"launches", [](const K& k) { return QVariant::fromValue<qint64>(k.launches.count); }, {}},
        {"total ms", [](const K& k) { return static_cast<double>(k.launches.totalNs) * 1e-6; }, {}},
        {"median us",
         [](const K& k) { return static_cast<double>(k.launches.medianNs) * 1e-3; },
         {}},
        {"share %",
         [this](const K& k) {
             return m_totalNs > 0 ? 100.0 * static_cast<double>(k.launches.totalNs) /
                                        static_cast<double>(m_totalNs)
                                  : 0.0;
         },
         {}},
        {"fused nodes", [](const K& k) { return text(k.kernel.fusedNodes); }, {}},
    });
}

void KernelsModel::setKernels(KernelRecords rows) {
    m_totalNs = 0;
    if (rows)
        for (const KernelRecord& k : *rows)
            m_totalNs += k.launches.totalNs;
    setRows(std::move(rows));
}

GraphBreaksModel::GraphBreaksModel(QObject* parent)
    : SnapshotTableModel(parent) {
    using B = trace::GraphBreakRow;
    setColumns({
        {"#", [](const B& b) { return b.order; }, {}},
        {"compile", [](const B& b) { return text(b.compileId); }, {}},
        {"location",
         [](const B& b) {
             return QString("%1:%2:%3")
                 .arg(QFileInfo(text(b.file)).fileName())
                 .arg(b.line)
                 .arg(b.column);
         },
         [](const B& b) { return text(b.userStack); }},
        {"kind", [](const B& b) { return text(b.reasonKind); }, {}},
        {"reason", [](const B& b) { return text(b.reason); }, {}},
    });
}

} // namespace kiln::views
