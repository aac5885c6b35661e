// SPDX-License-Identifier: MIT
/// \file
/// Runs workloads for Studio: `kiln run` as a child process (generated code may crash or hang;
/// Studio must not). The child writes the trace; Studio only reads it (TraceSession), so a live
/// run and a finished one are shown through the same reader path. When the child is stopped by
/// the user or dies without finishing its run, the controller records that in the trace (as the
/// parent that saw it die) off the GUI thread, then reports the outcome.
#pragma once

#include <QList>
#include <QObject>
#include <QPair>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace kiln::studio {

/// What to run and how: `kiln run SCRIPT --db TRACE [--mode M] [--backend B] [--device D]
/// [--options K=V,...]`.
struct RunRequest {
    QString script;
    QString trace;
    QString mode;    ///< empty: what the script asks for
    QString backend; ///< empty: what the script asks for
    QString device = QStringLiteral("cpu");
    QList<QPair<QString, QString>> options; ///< inductor options merged over the script's
    /// > 0: after the script, its compiled functions are called again, `warmupCalls` untimed
    /// then this many timed calls (kiln run --measure, --warmup).
    int measureCalls = 0;
    int warmupCalls = 3;

    QStringList arguments() const;
};

/// How a child ended.
struct RunOutcome {
    enum class Kind { Finished, Failed, Crashed, Stopped };
    Kind kind = Kind::Finished;
    int exitCode = 0;
    QString message; ///< for Failed/Crashed/Stopped: what the user should read
};

class RunController final : public QObject {
    Q_OBJECT

public:
    explicit RunController(QObject* parent = nullptr);
    /// Kills a child that is still running (Studio is closing) and marks its run cancelled.
    ~RunController() override;

    /// `kiln` next to this executable, or $KILN_EXECUTABLE when set.
    static QString kilnExecutable();

    bool isRunning() const { return m_process != nullptr; }
    qint64 childPid() const { return m_pid; }
    const RunRequest& current() const { return m_current; }

    /// Starts the requests one after another (one child at a time); `finished` follows each,
    /// `sequenceFinished` the last. A request that fails or is stopped ends the sequence.
    void start(QList<RunRequest> requests);
    /// Stops the child: SIGTERM, then SIGKILL after 3 s; its run is recorded as cancelled.
    void stop();

Q_SIGNALS:
    void started(qint64 pid, const kiln::studio::RunRequest& request);
    void finished(const kiln::studio::RunOutcome& outcome);
    void sequenceFinished();

private:
    void startNext();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);
    RunOutcome outcomeOf(int exitCode, QProcess::ExitStatus status) const;
    void report(RunOutcome outcome);

    QProcess* m_process = nullptr;
    qint64 m_pid = 0;
    RunRequest m_current;
    QList<RunRequest> m_queue;
    bool m_stopRequested = false;
    QByteArray m_stderrTail; ///< the child's last stderr bytes (its `kiln:` summary or usage error)
};

} // namespace kiln::studio

Q_DECLARE_METATYPE(kiln::studio::RunRequest)
Q_DECLARE_METATYPE(kiln::studio::RunOutcome)
