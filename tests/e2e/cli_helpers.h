// SPDX-License-Identifier: MIT
/// \file
/// What the hardening tests of the kiln executable share: the binary, scripts in a temporary
/// directory, the trace as a second process reads it, and a connection that holds a trace's
/// write lock the way another process would.
#pragma once

#include "script_runner.h"
#include "trace/trace_reader.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <functional>
#include <sqlite3.h>
#include <string>
#include <vector>

namespace kiln::testing {

inline QString kilnBinary() {
    return binaryDir() + "/bin/kiln";
}

inline QString writeScriptFile(const QTemporaryDir& dir, const QString& name,
                               const QByteArray& text) {
    QString path = dir.filePath(name);
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(text);
    return path;
}

inline std::vector<trace::RunRow> traceRuns(const QString& tracePath) {
    auto reader = trace::TraceReader::open(tracePath.toStdString());
    if (!reader.ok()) return {};
    auto runs = reader.value()->listRuns();
    return runs.ok() ? runs.value() : std::vector<trace::RunRow>{};
}

inline std::vector<trace::OutputLine> traceOutput(const QString& tracePath, int64_t runId,
                                                  int64_t limit = 10000000) {
    auto reader = trace::TraceReader::open(tracePath.toStdString());
    if (!reader.ok()) return {};
    auto lines = reader.value()->outputLines(runId, 0, limit);
    return lines.ok() ? lines.value() : std::vector<trace::OutputLine>{};
}

/// How many output rows run 1 of the trace has; 0 while it cannot be read.
inline int64_t traceLineCount(const QString& tracePath) {
    sqlite3* db = nullptr;
    int64_t count = 0;
    if (sqlite3_open_v2(tracePath.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) ==
        SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, "SELECT count(*) FROM output WHERE run_id = 1", -1, &stmt,
                               nullptr) == SQLITE_OK &&
            sqlite3_step(stmt) == SQLITE_ROW)
            count = sqlite3_column_int64(stmt, 0);
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return count;
}

/// Polls \p done every 20 ms for up to \p ms; whether it held. The bound is generous: it only
/// keeps a broken build from hanging the test.
inline bool waitUntil(const std::function<bool()>& done, int ms = 60000) {
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > ms) return false;
        QThread::msleep(20);
    }
    return true;
}

/// Another process's view of a trace: a connection holding its write lock (BEGIN IMMEDIATE),
/// as a `sqlite3` shell in a transaction or a second `kiln run` does.
class TraceWriteLock {
public:
    explicit TraceWriteLock(const QString& path) {
        sqlite3_open_v2(path.toUtf8().constData(), &m_db, SQLITE_OPEN_READWRITE, nullptr);
        // kiln may be committing batch after batch: try often, to catch the moment between two
        // (SQLite's busy handler sleeps up to 100 ms between tries and could miss them all).
        QElapsedTimer timer;
        timer.start();
        while (!m_held && timer.elapsed() < 60000) {
            m_held = sqlite3_exec(m_db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK;
            if (!m_held) QThread::usleep(100);
        }
    }
    ~TraceWriteLock() {
        release();
        sqlite3_close(m_db);
    }
    TraceWriteLock(const TraceWriteLock&) = delete;
    TraceWriteLock& operator=(const TraceWriteLock&) = delete;
    bool held() const { return m_held; }
    void release() {
        if (m_held) sqlite3_exec(m_db, "COMMIT", nullptr, nullptr, nullptr);
        m_held = false;
    }

private:
    sqlite3* m_db = nullptr;
    bool m_held = false;
};

} // namespace kiln::testing
