// SPDX-License-Identifier: MIT
#include "import_job.h"

#include "import/profile_import.h"
#include "import/torch_trace_import.h"
#include "trace/trace_writer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>
#include <QtConcurrent>
#include <cstdio>

namespace kiln::studio {

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

/// The trace file and SQLite's companions (WAL and shared memory), gone.
void removeTrace(const QString& path) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        QFile::remove(path + QString::fromLatin1(suffix));
}

} // namespace

ImportJob::ImportJob(QObject* parent)
    : QObject(parent) {
    qRegisterMetaType<ImportResult>();
    connect(&m_watcher, &QFutureWatcher<ImportResult>::finished, this,
            [this] { Q_EMIT finished(m_watcher.result()); });
}

ImportJob::~ImportJob() {
    // The body reports to this object: it must be over before the object goes.
    cancel();
    m_watcher.waitForFinished();
}

bool ImportJob::isRunning() const {
    return m_watcher.isRunning();
}

void ImportJob::cancel() {
    if (m_cancelled) m_cancelled->store(true);
}

bool ImportJob::start(const ImportRequest& request) {
    if (isRunning()) return false;
    m_cancelled = std::make_shared<std::atomic<bool>>(false);
    auto cancelled = m_cancelled;
    // Progress crosses to the GUI thread as queued signals, at most one per 1/500 of the work.
    auto report = [this, last = qint64(-1)](qint64 done, qint64 total) mutable {
        qint64 step = total > 0 ? done * 500 / total : 0;
        if (step == last) return;
        last = step;
        Q_EMIT progress(done, total);
    };
    m_watcher.setFuture(QtConcurrent::run(
        [request, cancelled, report]() mutable { return run(request, *cancelled, report); }));
    return true;
}

QStringList ImportJob::logsOf(const QString& path) {
    QStringList logs;
    for (const std::string& log :
         importer::torchTraceLogsIn(QFileInfo(path).absoluteFilePath().toStdString()))
        logs << QString::fromStdString(log);
    return logs;
}

QString ImportJob::defaultTraceFor(const QString& path) {
    QFileInfo info(path);
    if (info.isDir()) return info.absoluteFilePath() + QStringLiteral(".kiln");
    return info.absoluteDir().filePath(info.completeBaseName() + QStringLiteral(".kiln"));
}

QString ImportJob::temporaryTraceFor(const QString& path) {
    QTemporaryFile file(QDir::temp().filePath(
        QStringLiteral("kiln-import-%1-XXXXXX.kiln").arg(QFileInfo(path).completeBaseName())));
    file.setAutoRemove(false); // the name is reserved; the import replaces the empty file
    if (!file.open()) return QDir::temp().filePath(QFileInfo(path).completeBaseName() + ".kiln");
    return file.fileName();
}

ImportResult ImportJob::run(const ImportRequest& request, const std::atomic<bool>& cancelled,
                            const std::function<void(qint64, qint64)>& progress) {
    ImportResult result;
    qint64 total = 0;
    for (const QString& log : request.logs)
        total += QFileInfo(log).size();
    if (!request.profile.isEmpty()) total += QFileInfo(request.profile).size();
    qint64 before = 0; // bytes of the files already read
    auto optionsFor = [&] {
        importer::ImportOptions options;
        options.progress = [&](int64_t done, int64_t) {
            progress(before + done, total);
            return !cancelled.load();
        };
        return options;
    };
    auto failed = [&](const Diagnostic& error) {
        result.kind = error.kind == importer::kImportCancelled ? ImportResult::Kind::Cancelled
                                                               : ImportResult::Kind::Failed;
        result.message = text(error.render());
        return result;
    };

    if (request.intoRun > 0) {
        // Into a run of the open trace: the profile import writes nothing unless it completes.
        auto summary =
            importer::importProfile(request.profile.toStdString(), request.trace.toStdString(),
                                    request.intoRun, optionsFor());
        if (!summary) return failed(summary.error());
        result.kind = ImportResult::Kind::Imported;
        result.trace = request.trace;
        result.runId = summary->runId;
        result.summary = QStringLiteral("%1 kernel launches from %2 into run #%3")
                             .arg(summary->launches)
                             .arg(QFileInfo(request.profile).fileName())
                             .arg(summary->runId);
        return result;
    }

    // A new trace: written beside its destination, renamed into place when complete.
    const QString partial = request.trace + QStringLiteral(".importing");
    removeTrace(partial);
    QStringList done;
    {
        auto writer = trace::TraceWriter::open(partial.toStdString());
        if (!writer) {
            removeTrace(partial);
            return failed(writer.error());
        }
        for (const QString& log : request.logs) {
            auto summary =
                importer::importTorchTraceLog(log.toStdString(), *writer.value(), optionsFor());
            if (!summary) {
                writer.value().reset();
                removeTrace(partial);
                return failed(summary.error());
            }
            before += QFileInfo(log).size();
            result.runId = summary->runId;
            done << QStringLiteral("%1 (%2 compiles, %3 kernels)")
                        .arg(QFileInfo(log).fileName())
                        .arg(summary->compiles)
                        .arg(summary->kernels);
        }
    }
    QString profileProblem;
    if (!request.profile.isEmpty()) {
        auto summary = importer::importProfile(request.profile.toStdString(), partial.toStdString(),
                                               result.runId, optionsFor());
        if (!summary && (summary.error().kind == importer::kImportCancelled || done.isEmpty())) {
            removeTrace(partial);
            return failed(summary.error());
        }
        if (summary) {
            result.runId = summary->runId;
            done << QStringLiteral("%1 kernel launches from %2")
                        .arg(summary->launches)
                        .arg(QFileInfo(request.profile).fileName());
        } else {
            // The logs are in: keep them, and say why the profile is not.
            profileProblem = text(summary.error().render());
        }
    }
    if (cancelled.load()) {
        removeTrace(partial);
        result.kind = ImportResult::Kind::Cancelled;
        result.message = QStringLiteral("the import was cancelled: no trace was written");
        return result;
    }
    removeTrace(request.trace);
    // rename(2) replaces atomically; the companions are gone once the writers have closed.
    if (std::rename(QFile::encodeName(partial).constData(),
                    QFile::encodeName(request.trace).constData()) != 0) {
        removeTrace(partial);
        result.message = QStringLiteral("cannot write %1").arg(request.trace);
        return result;
    }
    removeTrace(partial);
    result.trace = request.trace;
    result.summary = QStringLiteral("imported ") + done.join(QStringLiteral(", "));
    result.kind =
        profileProblem.isEmpty() ? ImportResult::Kind::Imported : ImportResult::Kind::Failed;
    result.message =
        profileProblem.isEmpty()
            ? QString()
            : QStringLiteral("the logs were imported, the profile was not: %1").arg(profileProblem);
    return result;
}

} // namespace kiln::studio
