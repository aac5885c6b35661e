// SPDX-License-Identifier: MIT
#include "run_provenance.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace kiln::views {

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

/// "B's" or "A's and B's" (the runs whose times came from the cache).
QString whose(bool a, bool b) {
    if (a && b) return QString("A's and B's");
    return a ? QString("A's") : QString("B's");
}

/// "6 of 6 candidates" for one side, "4 of 6 and 6 of 6 candidates" for both.
QString cachedCounts(const TuningOrigin& a, const TuningOrigin& b) {
    QStringList parts;
    for (const TuningOrigin* side : {&a, &b})
        if (side->cached > 0)
            parts << QStringLiteral("%1 of %2").arg(side->cached).arg(side->total());
    return parts.join(QString(" and ")) + QString(" candidates");
}

/// "CPU", "CPU and threads", "CPU, ISA and threads".
QString joinWithAnd(const QStringList& items) {
    if (items.size() < 2) return items.join(QString());
    return items.mid(0, items.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" and ") +
           items.back();
}

} // namespace

QString machineSummaryText(const trace::RunRow& run) {
    return text(trace::machineSummary(run.machine));
}

bool isImportedRun(const trace::RunRow& run) {
    return run.mode == "imported";
}

namespace {

QJsonObject importedFacts(const trace::RunRow& run) {
    return QJsonDocument::fromJson(QByteArray::fromStdString(run.machineJson)).object();
}

} // namespace

QString importedOriginText(const trace::RunRow& run) {
    return isImportedRun(run) ? text(trace::importedOrigin(run.machineJson)) : QString();
}

QString machineDetailsText(const trace::RunRow& run) {
    if (isImportedRun(run)) {
        const QJsonObject facts = importedFacts(run);
        QStringList lines{QString("Imported from %1 (kiln import): PyTorch ran it, not Kiln.")
                              .arg(text(run.workloadPath))};
        if (facts.contains("pytorch")) lines << "PyTorch: " + facts["pytorch"].toString();
        if (facts.contains("python"))
            lines << "Python: " + facts["python"].toString().section(' ', 0, 0);
        if (facts.contains("cuda") && !facts["cuda"].toString().isEmpty())
            lines << "CUDA: " + facts["cuda"].toString();
        lines << (facts.contains("rank") ? QString("rank: %1").arg(facts["rank"].toInteger())
                                         : QString("rank: none logged (one process)"));
        if (!run.host.empty())
            lines << QString("imported on %1 (the log does not name the host it was written on)")
                         .arg(text(run.host));
        return lines.join(u'\n');
    }
    const trace::MachineInfo& m = run.machine;
    if (!m.recorded())
        return QString("Machine not recorded: the run was written by a Kiln that did not record it "
                       "(trace schema version 3 or older), or its runner did not report it.");
    QStringList lines;
    if (!m.cpu.empty()) lines << QString("CPU: %1").arg(text(m.cpu));
    if (!m.isa.empty()) lines << QString("instruction set: %1").arg(text(m.isa));
    if (m.threads > 0) lines << QString("threads: %1").arg(m.threads);
    if (!m.matmul.empty()) lines << QString("matmul libraries:");
    for (const auto& [dtype, library] : m.matmul)
        lines << QStringLiteral("    %1: %2").arg(text(dtype), text(library));
    return lines.join(u'\n');
}

QString machineWarning(const trace::RunRow& a, const trace::RunRow& b) {
    const bool knowA = a.machine.recorded(), knowB = b.machine.recorded();
    if (knowA != knowB)
        return QString("Run #%1 does not record the machine it ran on (run #%2 ran on %3): "
                       "timings may not be directly comparable.")
            .arg(knowA ? b.id : a.id)
            .arg(knowA ? a.id : b.id)
            .arg(machineSummaryText(knowA ? a : b));
    const std::vector<trace::MachineDifference> differences =
        trace::machineDifferences(a.machine, b.machine);
    if (differences.empty()) return {};
    QStringList machineFacts, libraries;
    for (const trace::MachineDifference& d : differences) {
        if (d.what == "CPU" || d.what == "ISA" || d.what == "threads")
            machineFacts << text(d.what);
        else
            libraries << QString("%1: %2 vs %3").arg(text(d.what), text(d.a), text(d.b));
    }
    QString warning;
    if (!machineFacts.isEmpty())
        warning = QString("These runs come from different machines (different %1): %2 vs %3")
                      .arg(joinWithAnd(machineFacts), machineSummaryText(a), machineSummaryText(b));
    if (!libraries.isEmpty())
        warning += (warning.isEmpty() ? QString("These runs used different matmul libraries (%1)")
                                      : QString("; different matmul libraries (%1)"))
                       .arg(libraries.join(QStringLiteral("; ")));
    return warning + QString("; timings are not directly comparable.");
}

TuningOrigin tuningOrigin(const std::vector<trace::AutotuneChoiceRow>& choices) {
    TuningOrigin origin;
    for (const trace::AutotuneChoiceRow& c : choices) {
        if (!c.fromCache)
            ++origin.unknown;
        else if (*c.fromCache)
            ++origin.cached;
        else
            ++origin.measured;
    }
    return origin;
}

QString tuningCacheNote(const RunSnapshot& a, const RunSnapshot& b) {
    const TuningOrigin originA = tuningOrigin(a.autotuneChoices);
    const TuningOrigin originB = tuningOrigin(b.autotuneChoices);
    if (originA.cached == 0 && originB.cached == 0) return {};
    return QString(
               "%1 autotuning times (%2) come from the tuning cache: measured by an earlier run on "
               "the same CPU, not in the run itself.")
        .arg(whose(originA.cached > 0, originB.cached > 0), cachedCounts(originA, originB));
}

QStringList comparisonNotes(const RunSnapshot& a, const RunSnapshot& b) {
    QStringList notes;
    if (QString machines = machineWarning(a.run, b.run); !machines.isEmpty())
        notes << QStringLiteral("⚠ ") + machines;
    if (QString cache = tuningCacheNote(a, b); !cache.isEmpty()) notes << cache;
    return notes;
}

QString nothingCompiledNote(const RunSnapshot& a, const RunSnapshot& b) {
    // A compile that traced no op (or ran nothing but eager calls) has no graph: what counts is
    // whether any compiled code ran.
    const bool aCompiled = !a.graphs.empty();
    const bool bCompiled = !b.graphs.empty();
    if (aCompiled && bCompiled) return {};
    if (!aCompiled && !bCompiled)
        return QStringLiteral(
            "Neither run compiled a frame: the workload never calls torch.compile (or nothing "
            "it compiled traced an op), so both ran the same eager code and their times differ "
            "only by noise. There is nothing to compare: compile a function and run again.");
    const RunSnapshot& none = aCompiled ? b : a;
    return QStringLiteral("Run #%1 compiled no frame: its times are eager code's, not a mode's, "
                          "so no ratio is shown.")
        .arg(none.run.id);
}

} // namespace kiln::views
