// SPDX-License-Identifier: MIT
/// \file
/// Thin owners for SQLite connections and prepared statements, and the one place that turns
/// SQLite's result codes into Diagnostics. Internal to the trace layer: the rest of the engine
/// sees only the writer and reader, never sqlite3 types.
#pragma once

#include "support/expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

struct sqlite3;
struct sqlite3_stmt;

namespace kiln::trace {

/// "<what> trace '<path>': <sqlite message>", kind "TraceError".
Diagnostic traceError(const std::string& path, std::string_view what, std::string_view detail);

/// An open connection; closes it on destruction. Move-only.
class Connection {
public:
    Connection() = default;
    Connection(sqlite3* db, std::string path)
        : m_db(db)
        , m_path(std::move(path)) {}
    Connection(Connection&& other) noexcept;
    Connection& operator=(Connection&& other) noexcept;
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    ~Connection();

    /// Opens \p path with sqlite3_open_v2 \p flags (plus SQLITE_OPEN_NOMUTEX: each connection
    /// is used by one thread at a time, guarded by its owner) and sets the 5 s busy timeout.
    static Expected<Connection> open(const std::string& path, int flags);

    sqlite3* get() const { return m_db; }
    const std::string& path() const { return m_path; }
    /// The name errors use, e.g. the original file's for an in-memory copy of it.
    void setDisplayPath(std::string path) { m_path = std::move(path); }
    /// SQLite's message for the last failure on this connection.
    std::string lastError() const;
    /// SQLite's primary result code of the last failure (SQLITE_BUSY, SQLITE_FULL, ...), which
    /// tells a failure worth retrying from one that is not.
    int lastErrorCode() const;
    /// How long a statement waits for another connection's lock before failing with
    /// SQLITE_BUSY (open() sets 5 s).
    void setBusyTimeout(int milliseconds);

    /// Runs one or more statements without results; \p what names the operation in errors.
    Status exec(std::string_view sql, std::string_view what) const;
    /// The single integer result of \p sql (a PRAGMA or an aggregate).
    Expected<int64_t> queryInt(const char* sql, std::string_view what) const;

private:
    sqlite3* m_db = nullptr;
    std::string m_path;
};

/// A prepared statement; finalized on destruction. Binding indices are 1-based, columns 0-based.
class Statement {
public:
    Statement() = default;
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    static Expected<Statement> prepare(const Connection& connection, std::string_view sql);

    bool valid() const { return m_stmt != nullptr; }
    /// Binds text without copying it: the bytes must outlive the next step().
    void bindText(int index, std::string_view text);
    /// Binds NULL for empty text, so optional columns read back as NULL.
    void bindTextOrNull(int index, std::string_view text);
    void bindInt(int index, int64_t value);
    void bindNull(int index);

    /// Advances; true when a row is available, false when done. Errors name \p what.
    Expected<bool> step(std::string_view what);
    /// step() for statements without results, then reset().
    Status run(std::string_view what);
    void reset();

    int64_t columnInt(int column) const;
    std::optional<int64_t> columnOptionalInt(int column) const;
    /// NULL reads as the empty string.
    std::string columnText(int column) const;

private:
    sqlite3_stmt* m_stmt = nullptr;
    sqlite3* m_db = nullptr;
    std::string m_path;
};

} // namespace kiln::trace
