// SPDX-License-Identifier: MIT
#include "trace/sqlite_handle.h"

#include <sqlite3.h>
#include <utility>

namespace kiln::trace {

namespace {
constexpr int kBusyTimeoutMs = 5000;
}

Diagnostic traceError(const std::string& path, std::string_view what, std::string_view detail) {
    std::string message = std::string(what) + " trace '" + path + "'";
    if (!detail.empty()) message += ": " + std::string(detail);
    return makeDiagnostic("TraceError", std::move(message));
}

Connection::Connection(Connection&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
    , m_path(std::move(other.m_path)) {}

Connection& Connection::operator=(Connection&& other) noexcept {
    if (this != &other) {
        if (m_db) sqlite3_close_v2(m_db);
        m_db = std::exchange(other.m_db, nullptr);
        m_path = std::move(other.m_path);
    }
    return *this;
}

Connection::~Connection() {
    if (m_db) sqlite3_close_v2(m_db);
}

Expected<Connection> Connection::open(const std::string& path, int flags) {
    sqlite3* db = nullptr;
    int rc = sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        // A handle is returned even on failure (unless out of memory) and carries the message.
        std::string detail = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
        sqlite3_close_v2(db);
        return traceError(path, "cannot open", detail);
    }
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    return Connection(db, path);
}

std::string Connection::lastError() const {
    return m_db ? sqlite3_errmsg(m_db) : "no connection";
}

int Connection::lastErrorCode() const {
    return m_db ? sqlite3_errcode(m_db) & 0xff : SQLITE_MISUSE;
}

void Connection::setBusyTimeout(int milliseconds) {
    sqlite3_busy_timeout(m_db, milliseconds);
}

Status Connection::exec(std::string_view sql, std::string_view what) const {
    std::string text(sql);
    char* message = nullptr;
    int rc = sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, &message);
    if (rc == SQLITE_OK) return Status::success();
    std::string detail = message ? message : sqlite3_errstr(rc);
    sqlite3_free(message);
    return traceError(m_path, what, detail);
}

Expected<int64_t> Connection::queryInt(const char* sql, std::string_view what) const {
    auto stmt = Statement::prepare(*this, sql);
    if (!stmt) return std::move(stmt).takeError();
    auto row = stmt->step(what);
    if (!row) return std::move(row).takeError();
    if (!row.value()) return traceError(m_path, what, "no result");
    return stmt->columnInt(0);
}

Statement::Statement(Statement&& other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr))
    , m_db(other.m_db)
    , m_path(std::move(other.m_path)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
        m_db = other.m_db;
        m_path = std::move(other.m_path);
    }
    return *this;
}

Statement::~Statement() {
    sqlite3_finalize(m_stmt);
}

Expected<Statement> Statement::prepare(const Connection& connection, std::string_view sql) {
    Statement stmt;
    stmt.m_db = connection.get();
    stmt.m_path = connection.path();
    int rc = sqlite3_prepare_v3(stmt.m_db, sql.data(), int(sql.size()), SQLITE_PREPARE_PERSISTENT,
                                &stmt.m_stmt, nullptr);
    if (rc != SQLITE_OK) return traceError(stmt.m_path, "cannot query", sqlite3_errmsg(stmt.m_db));
    return stmt;
}

void Statement::bindText(int index, std::string_view text) {
    sqlite3_bind_text64(m_stmt, index, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8);
}

void Statement::bindTextOrNull(int index, std::string_view text) {
    if (text.empty())
        bindNull(index);
    else
        bindText(index, text);
}

void Statement::bindInt(int index, int64_t value) {
    sqlite3_bind_int64(m_stmt, index, value);
}

void Statement::bindNull(int index) {
    sqlite3_bind_null(m_stmt, index);
}

Expected<bool> Statement::step(std::string_view what) {
    int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    std::string detail = sqlite3_errmsg(m_db);
    sqlite3_reset(m_stmt);
    return traceError(m_path, what, detail);
}

Status Statement::run(std::string_view what) {
    auto result = step(what);
    reset();
    if (!result) return std::move(result).takeError();
    return Status::success();
}

void Statement::reset() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

int64_t Statement::columnInt(int column) const {
    return sqlite3_column_int64(m_stmt, column);
}

std::optional<int64_t> Statement::columnOptionalInt(int column) const {
    if (sqlite3_column_type(m_stmt, column) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_int64(m_stmt, column);
}

std::string Statement::columnText(int column) const {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    if (!text) return {};
    return std::string(text, size_t(sqlite3_column_bytes(m_stmt, column)));
}

} // namespace kiln::trace
