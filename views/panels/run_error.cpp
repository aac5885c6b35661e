// SPDX-License-Identifier: MIT
#include "run_error.h"

#include <QDir>
#include <QRegularExpression>
#include <QStringList>

namespace kiln::views {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

/// "Type: message", or whichever of the two the run has.
QString errorHeadline(const trace::RunRow& run) {
    QString type = qs(run.errorType);
    QString message = qs(run.errorMessage).section('\n', 0, 0).trimmed();
    if (type.isEmpty()) return message;
    return message.isEmpty() ? type : type + ": " + message;
}

QString toolTipOf(const trace::RunRow& run) {
    QString tip = errorHeadline(run);
    // Only the trailing newline goes: a SyntaxError's traceback starts with its indented frame.
    QString traceback = qs(run.errorTraceback);
    while (!traceback.isEmpty() && traceback.back().isSpace())
        traceback.chop(1);
    if (!traceback.isEmpty()) tip += "\n\n" + traceback;
    return tip;
}

QString atLine(int line) {
    return line > 0 ? QString(" at line %1").arg(line) : QString();
}

/// A crash or cancellation: a neutral sentence with the run's own message.
QString stoppedText(const RunSnapshot& s, int line) {
    QString message = qs(s.run.errorMessage).section('\n', 0, 0).trimmed();
    if (s.run.status == trace::RunStatus::Cancelled)
        return message.isEmpty() ? "The run was cancelled" + atLine(line) + "."
                                 : "The run was cancelled" + atLine(line) + ": " + message;
    if (s.run.status == trace::RunStatus::Crashed)
        return message.isEmpty() ? "The run crashed" + atLine(line) + "."
                                 : "The run crashed" + atLine(line) + ": " + message;
    // 'running' in the trace, but its process is gone: nobody recorded how it ended.
    return QStringLiteral("The run's process is gone without recording how it ended: it crashed "
                          "or was killed.");
}

} // namespace

std::vector<TracebackFrame> parseTraceback(const QString& traceback) {
    // CPython: `  File "PATH", line N, in FUNCTION`; a SyntaxError's location has no `, in`.
    // Frame lines are indented by two spaces, the source lines under them by four: a source line
    // that happens to read `File "..."` is not taken for a frame.
    static const QRegularExpression frameLine(
        QString::fromLatin1(R"re(^  File "(.*)", line (\d+)(?:, in (.*))?\r?$)re"));
    std::vector<TracebackFrame> frames;
    for (const QString& text : traceback.split('\n')) {
        QRegularExpressionMatch m = frameLine.match(text);
        if (!m.hasMatch()) continue;
        frames.push_back({m.captured(1), m.captured(2).toInt(), m.captured(3).trimmed()});
    }
    return frames;
}

std::optional<TracebackFrame> innermostFrameIn(const QString& traceback, const QString& file) {
    if (file.isEmpty()) return std::nullopt;
    const QString wanted = QDir::cleanPath(file);
    std::vector<TracebackFrame> frames = parseTraceback(traceback);
    for (auto it = frames.rbegin(); it != frames.rend(); ++it)
        if (it->line > 0 && QDir::cleanPath(it->file) == wanted) return *it;
    return std::nullopt;
}

RunEndNotice runEndNotice(const RunSnapshot& s) {
    using trace::RunStatus;
    const trace::RunRow& run = s.run;
    bool gone = run.status == RunStatus::Running && s.looksCrashed;
    if (run.status == RunStatus::Ok || (run.status == RunStatus::Running && !gone)) return {};
    RunEndNotice notice;
    auto frame = innermostFrameIn(qs(run.errorTraceback), qs(run.workloadPath));
    notice.line = frame ? frame->line : 0;
    notice.toolTip = toolTipOf(run);
    if (run.status == RunStatus::Error) {
        notice.kind = RunEndNotice::Kind::Error;
        QString headline = errorHeadline(run);
        notice.text = headline.isEmpty() ? "The run ended with an error" + atLine(notice.line)
                                         : "The run ended with " + headline + atLine(notice.line);
        return notice;
    }
    notice.kind = RunEndNotice::Kind::Stopped;
    notice.text = stoppedText(s, notice.line);
    return notice;
}

} // namespace kiln::views
