// SPDX-License-Identifier: MIT
#include "run_controller.h"

#include "trace/trace_writer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>
#include <cstring>

namespace kiln::studio {

namespace {

constexpr int kKillAfterMs = 3000;
constexpr qsizetype kStderrTailBytes = 4096;

QString signalName(int signalNumber) {
    const char* text = strsignal(signalNumber);
    return text ? QString::fromLocal8Bit(text) : QStringLiteral("signal %1").arg(signalNumber);
}

/// The editor shows Python literals ('fork'); `kiln run --options` reads bare text as a str.
QString cliValue(const QString& literal) {
    const bool quoted = literal.size() >= 2 &&
                        (literal.front() == '\'' || literal.front() == '"') &&
                        literal.back() == literal.front();
    return quoted ? literal.mid(1, literal.size() - 2) : literal;
}

} // namespace

QStringList RunRequest::arguments() const {
    QStringList args{QStringLiteral("run"), script, QStringLiteral("--db"), trace,
                     QStringLiteral("--quiet")};
    if (!mode.isEmpty()) args << QStringLiteral("--mode") << mode;
    if (!backend.isEmpty()) args << QStringLiteral("--backend") << backend;
    if (!device.isEmpty()) args << QStringLiteral("--device") << device;
    if (measureCalls > 0)
        args << QStringLiteral("--measure") << QString::number(measureCalls)
             << QStringLiteral("--warmup") << QString::number(warmupCalls);
    if (!options.isEmpty()) {
        QStringList pairs;
        for (const auto& [key, value] : options)
            pairs << key + '=' + cliValue(value);
        args << QStringLiteral("--options") << pairs.join(',');
    }
    return args;
}

RunController::RunController(QObject* parent)
    : QObject(parent) {
    qRegisterMetaType<RunRequest>();
    qRegisterMetaType<RunOutcome>();
}

RunController::~RunController() {
    if (!m_process) return;
    m_process->disconnect(this);
    m_process->kill();
    m_process->waitForFinished(kKillAfterMs);
    (void)trace::TraceWriter::markRunsEnded(m_current.trace.toStdString(), m_pid,
                                            trace::RunStatus::Cancelled, 130,
                                            "run stopped: Kiln Studio closed");
    (void)trace::TraceWriter::checkpoint(m_current.trace.toStdString());
}

QString RunController::kilnExecutable() {
    QString fromEnv = qEnvironmentVariable("KILN_EXECUTABLE");
    if (!fromEnv.isEmpty()) return fromEnv;
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("kiln"));
}

void RunController::start(QList<RunRequest> requests) {
    if (m_process || requests.isEmpty()) return;
    m_queue = std::move(requests);
    startNext();
}

void RunController::startNext() {
    m_current = m_queue.takeFirst();
    m_stopRequested = false;
    m_stderrTail.clear();
    m_process = new QProcess(this);
    m_process->setProgram(kilnExecutable());
    m_process->setArguments(m_current.arguments());
    m_process->setWorkingDirectory(QFileInfo(m_current.script).absolutePath());
    // The script's output is in the trace; the child's own stderr holds its summary line or
    // a usage error, which is all Studio needs from the pipe.
    m_process->setStandardOutputFile(QProcess::nullDevice());
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        m_stderrTail += m_process->readAllStandardError();
        if (m_stderrTail.size() > kStderrTailBytes)
            m_stderrTail = m_stderrTail.right(kStderrTailBytes);
    });
    connect(m_process, &QProcess::started, this, [this] {
        m_pid = m_process->processId();
        Q_EMIT started(m_pid, m_current);
    });
    connect(m_process, &QProcess::finished, this, &RunController::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &RunController::onError);
    m_process->start();
}

void RunController::stop() {
    if (!m_process) return;
    m_queue.clear();
    m_stopRequested = true;
    m_process->terminate();
    QPointer<QProcess> process = m_process;
    QTimer::singleShot(kKillAfterMs, this, [process] {
        if (process && process->state() != QProcess::NotRunning) process->kill();
    });
}

void RunController::onError(QProcess::ProcessError error) {
    if (error != QProcess::FailedToStart) return; // the others end in finished()
    RunOutcome outcome;
    outcome.kind = RunOutcome::Kind::Failed;
    outcome.exitCode = -1;
    outcome.message = tr("cannot start %1: %2").arg(m_process->program(), m_process->errorString());
    m_queue.clear();
    m_process->deleteLater();
    m_process = nullptr;
    m_pid = 0;
    report(outcome);
}

RunOutcome RunController::outcomeOf(int exitCode, QProcess::ExitStatus status) const {
    RunOutcome outcome;
    outcome.exitCode = exitCode;
    QString tail = QString::fromLocal8Bit(m_stderrTail).trimmed();
    if (m_stopRequested) {
        outcome.kind = RunOutcome::Kind::Stopped;
        outcome.message = tr("run stopped by the user");
    } else if (status == QProcess::CrashExit) {
        // On Unix QProcess reports the terminating signal's number as the exit code.
        outcome.kind = RunOutcome::Kind::Crashed;
        outcome.exitCode = 128 + exitCode;
        outcome.message = tr("kiln run died: %1").arg(signalName(exitCode));
    } else if (exitCode == 0 || exitCode == 1 || exitCode == 124) {
        outcome.kind = RunOutcome::Kind::Finished; // ok, a script error, or its --timeout
        outcome.message = tail.section('\n', -1);
    } else {
        outcome.kind = RunOutcome::Kind::Failed;
        outcome.message =
            tail.isEmpty() ? tr("kiln run exited with status %1").arg(exitCode) : tail;
    }
    return outcome;
}

void RunController::onFinished(int exitCode, QProcess::ExitStatus status) {
    m_stderrTail += m_process->readAllStandardError();
    RunOutcome outcome = outcomeOf(exitCode, status);
    m_process->deleteLater();
    m_process = nullptr;
    const qint64 pid = m_pid;
    m_pid = 0;
    // A child that could not finish its run row: record how it ended. Then, for every child,
    // move the trace out of the -wal sidecar (a reader of ours kept SQLite from doing it), so
    // the .kiln is the whole trace. Both off the GUI thread; reported once committed, so a
    // refresh shows it.
    const bool mark =
        outcome.kind == RunOutcome::Kind::Crashed || outcome.kind == RunOutcome::Kind::Stopped;
    trace::RunStatus runStatus = outcome.kind == RunOutcome::Kind::Stopped
                                     ? trace::RunStatus::Cancelled
                                     : trace::RunStatus::Crashed;
    std::string path = m_current.trace.toStdString();
    std::string message = outcome.message.toStdString();
    int code = outcome.kind == RunOutcome::Kind::Stopped ? 130 : outcome.exitCode;
    auto* watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcher<void>::finished, this, [this, watcher, outcome] {
        watcher->deleteLater();
        report(outcome);
    });
    watcher->setFuture(QtConcurrent::run([mark, path, pid, runStatus, code, message] {
        if (mark) (void)trace::TraceWriter::markRunsEnded(path, pid, runStatus, code, message);
        if (QFileInfo::exists(QString::fromStdString(path)))
            (void)trace::TraceWriter::checkpoint(path);
    }));
}

void RunController::report(RunOutcome outcome) {
    bool goOn = outcome.kind == RunOutcome::Kind::Finished && !m_queue.isEmpty();
    Q_EMIT finished(outcome);
    if (goOn) return startNext();
    m_queue.clear();
    Q_EMIT sequenceFinished();
}

} // namespace kiln::studio
