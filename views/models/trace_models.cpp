// SPDX-License-Identifier: MIT
#include "trace_models.h"

#include "run_provenance.h"
#include "trace/trace_reader.h"

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
        {"status",
         [](const R& r) {
             // A 'running' row whose process is gone died before Studio could mark it.
             return QString(trace::TraceReader::runLooksCrashed(r)
                                ? "crashed"
                                : trace::runStatusName(r.status));
         },
         [](const R& r) {
             return text(r.errorType.empty() ? "" : r.errorType + ": " + r.errorMessage);
         }},
        {"seconds",
         [](const R& r) {
             // An imported run ended when its import did, not when PyTorch's run did.
             return r.endedAtNs && !isImportedRun(r)
                        ? QVariant(static_cast<double>(*r.endedAtNs - r.startedAtNs) * 1e-9)
                        : QVariant();
         },
         {}},
        // Last, so that the longest text gets the stretched column.
        // An imported run: where it came from (PyTorch version, rank) instead of Kiln's machine.
        {"machine",
         [](const R& r) {
             return isImportedRun(r) ? "imported: " + importedOriginText(r) : machineSummaryText(r);
         },
         [](const R& r) { return machineDetailsText(r); }},
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

CompilesModel::CompilesModel(QObject* parent)
    : SnapshotTableModel(parent) {
    using C = trace::CompileRow;
    setColumns({
        {"compile", [](const C& c) { return text(c.compileId); }, {}},
        {"reason", [](const C& c) { return text(c.reason); }, {}},
        {"status", [](const C& c) { return text(c.status); },
         [](const C& c) { return text(c.failure); }},
        {"ms",
         [](const C& c) {
             return c.durationNs ? QVariant(static_cast<double>(*c.durationNs) * 1e-6) : QVariant();
         },
         {}},
        {"backend", [](const C& c) { return text(c.backend); }, {}},
        {"failure", [](const C& c) { return text(c.failure); }, {}},
    });
}

GuardsModel::GuardsModel(QObject* parent)
    : SnapshotTableModel(parent) {
    using G = trace::GuardRow;
    setColumns({
        {"compile", [](const G& g) { return text(g.compileId); }, {}},
        {"kind",
         [](const G& g) { return g.installed ? text(g.kind) : text(g.kind) + " · not guarded"; },
         {}},
        {"guard", [](const G& g) { return text(g.expression); }, {}},
        {"expected", [](const G& g) { return text(g.expected); }, {}},
        {"line", [](const G& g) { return g.userLine > 0 ? QVariant(g.userLine) : QVariant(); }, {}},
    });
}

RecompilesModel::RecompilesModel(QObject* parent)
    : SnapshotTableModel(parent) {
    using R = trace::RecompileRow;
    setColumns({
        {"compile", [](const R& r) { return text(r.compileId); }, {}},
        {"older entry", [](const R& r) { return text(r.failedCompileId); }, {}},
        // An imported reason PyTorch words in a way Kiln does not parse: the reason itself.
        {"guard", [](const R& r) { return text(r.guardSource.empty() ? r.reason : r.guardSource); },
         [](const R& r) { return text(r.reason); }},
        {"expected", [](const R& r) { return text(r.expected); }, {}},
        {"actual", [](const R& r) { return text(r.actual); }, {}},
    });
}

ConfigModel::ConfigModel(QObject* parent)
    : SnapshotTableModel(parent) {
    using C = trace::ConfigRow;
    setColumns({
        {"option", [](const C& c) { return text(c.key); }, {}},
        {"value", [](const C& c) { return text(c.value); }, {}},
        {"default", [](const C& c) { return text(c.defaultValue); }, {}},
        {"source", [](const C& c) { return text(c.source); }, {}},
    });
}

OutputModel::OutputModel(QObject* parent)
    : SnapshotTableModel(parent) {
    using L = trace::OutputLine;
    setColumns({
        {"stream", [](const L& l) { return QString(outputStreamName(l.stream)); }, {}},
        {"s", [](const L& l) { return static_cast<double>(l.tNs) * 1e-9; }, {}},
        {"text", [](const L& l) { return text(l.text); }, {}},
    });
}

} // namespace kiln::views
