// SPDX-License-Identifier: MIT
/// \file
/// Imports PyTorch's logs into a trace off the GUI thread: TORCH_TRACE logs (a .log file, or
/// every .log of a TORCH_TRACE directory, one run each) and optionally a torch.profiler Chrome
/// trace into the last of them, through engine/import as `kiln import` does. A new trace is
/// written to a file beside its destination and renamed into place only when complete, so a
/// cancelled or failed import leaves no half-written trace. A profile can also go into a run of
/// an open trace (`kiln import --into`), which writes nothing unless it completes.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>

namespace kiln::studio {

struct ImportRequest {
    QStringList logs;   ///< TORCH_TRACE .log files, in order (a run each); may be empty
    QString profile;    ///< a torch.profiler .json; empty: none
    QString trace;      ///< the trace to write (replaced when it exists), or with intoRun the
                        ///< trace that has the run
    qint64 intoRun = 0; ///< > 0: the profile goes into this run of `trace` (no logs)
};

struct ImportResult {
    enum class Kind { Imported, Cancelled, Failed } kind = Kind::Failed;
    QString trace;    ///< the trace written (Imported, and Failed after a log was imported)
    qint64 runId = 0; ///< the run to show: the last log's, or the profile's
    /// Why it failed, or what went wrong after the logs were imported (a profile that does
    /// not match: the trace is still there).
    QString message;
    QString summary; ///< "imported 1 log (6 compiles, 25 kernels), 42 launches from the profile"
};

class ImportJob final : public QObject {
    Q_OBJECT

public:
    explicit ImportJob(QObject* parent = nullptr);
    ~ImportJob() override;

    /// Starts \p request on a pool thread; false (and nothing started) while one is running.
    bool start(const ImportRequest& request);
    /// Asks the running import to stop: it ends Cancelled at its next progress report.
    void cancel();
    bool isRunning() const;

    /// The logs to import for \p path: the file itself, or a directory's *.log files by name
    /// (a TORCH_TRACE directory: one per rank). Empty when there are none.
    static QStringList logsOf(const QString& path);
    /// The default trace for a log, a directory or a profile: beside it, named .kiln.
    static QString defaultTraceFor(const QString& path);
    /// A file name in the temporary directory for an import not to be kept.
    static QString temporaryTraceFor(const QString& path);
    /// Runs \p request on the calling thread (the job's body; tests call it directly).
    static ImportResult run(const ImportRequest& request, const std::atomic<bool>& cancelled,
                            const std::function<void(qint64, qint64)>& progress);

Q_SIGNALS:
    /// Bytes read of all the files, and their total; queued to the job's thread.
    void progress(qint64 done, qint64 total);
    void finished(const kiln::studio::ImportResult& result);

private:
    QFutureWatcher<ImportResult> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancelled;
};

} // namespace kiln::studio

Q_DECLARE_METATYPE(kiln::studio::ImportResult)
