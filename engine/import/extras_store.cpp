// SPDX-License-Identifier: MIT
#include "import/extras_store.h"

#include "import/torch_trace_import.h"
#include "trace/sqlite_handle.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

namespace kiln::importer {

namespace {

/// One insert per extra, in one transaction, on a connection of its own (the TraceWriter has
/// committed the run's rows by then); `next` fills the extra and says whether there was one.
template <typename Next>
Status insertExtras(const std::string& tracePath, int64_t runId, Next&& next) {
    auto db = trace::Connection::open(tracePath, SQLITE_OPEN_READWRITE);
    if (!db) return db.error();
    db->setBusyTimeout(30000);
    auto insert = trace::Statement::prepare(
        *db, "INSERT INTO import_extras(run_id, line, kind, compile_id, envelope, payload) "
             "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    if (!insert) return insert.error();
    if (Status status = db->exec("BEGIN IMMEDIATE", "cannot lock"); !status) return status;
    ImportExtra extra;
    while (next(extra)) {
        insert->bindInt(1, runId);
        insert->bindInt(2, extra.line);
        insert->bindText(3, extra.kind);
        insert->bindTextOrNull(4, extra.compileId);
        insert->bindText(5, extra.envelope);
        insert->bindTextOrNull(6, extra.payload);
        if (Status status = insert->run("cannot write to"); !status) {
            (void)db->exec("ROLLBACK", "cannot roll back");
            return status;
        }
    }
    return db->exec("COMMIT", "cannot commit to");
}

void writeText(std::FILE* f, const std::string& text, bool& failed) {
    uint64_t size = text.size();
    failed |= std::fwrite(&size, sizeof size, 1, f) != 1;
    failed |= size > 0 && std::fwrite(text.data(), 1, size, f) != size;
}

bool readText(std::FILE* f, std::string& text) {
    uint64_t size = 0;
    if (std::fread(&size, sizeof size, 1, f) != 1) return false;
    text.resize(size);
    return size == 0 || std::fread(text.data(), 1, size, f) == size;
}

} // namespace

Status storeImportExtras(const std::string& tracePath, int64_t runId,
                         const std::vector<ImportExtra>& extras) {
    if (extras.empty()) return Status();
    size_t at = 0;
    return insertExtras(tracePath, runId, [&](ImportExtra& extra) {
        if (at == extras.size()) return false;
        extra = extras[at++];
        return true;
    });
}

void ExtrasSpool::append(const ImportExtra& extra) {
    if (!m_file && !m_failed) {
        m_file.reset(std::tmpfile());
        m_failed = !m_file;
    }
    ++m_count;
    if (m_failed) return;
    std::FILE* f = m_file.get();
    m_failed |= std::fwrite(&extra.line, sizeof extra.line, 1, f) != 1;
    for (const std::string* text : {&extra.kind, &extra.compileId, &extra.envelope, &extra.payload})
        writeText(f, *text, m_failed);
}

Status ExtrasSpool::store(const std::string& tracePath, int64_t runId) {
    if (m_count == 0) return Status();
    if (m_failed || std::fflush(m_file.get()) != 0 || std::fseek(m_file.get(), 0, SEEK_SET) != 0)
        return makeDiagnostic("ImportError", "cannot keep the log's " + std::to_string(m_count) +
                                                 " unknown records: the temporary file failed");
    std::FILE* f = m_file.get();
    Status stored = insertExtras(tracePath, runId, [&](ImportExtra& extra) {
        return std::fread(&extra.line, sizeof extra.line, 1, f) == 1 && readText(f, extra.kind) &&
               readText(f, extra.compileId) && readText(f, extra.envelope) &&
               readText(f, extra.payload);
    });
    m_file.reset();
    m_count = 0;
    return stored;
}

std::string provenanceJson(const ImportSummary& summary) {
    nlohmann::json machine = {{"source", "torch_trace"}};
    if (!summary.pytorchVersion.empty()) machine["pytorch"] = summary.pytorchVersion;
    if (!summary.pythonVersion.empty()) machine["python"] = summary.pythonVersion;
    if (!summary.cudaVersion.empty()) machine["cuda"] = summary.cudaVersion;
    if (summary.rank >= 0) machine["rank"] = summary.rank;
    return machine.dump();
}

Status storeImportProvenance(const std::string& tracePath, int64_t runId,
                             const std::string& machineJson, int64_t durationNs) {
    auto db = trace::Connection::open(tracePath, SQLITE_OPEN_READWRITE);
    if (!db) return db.error();
    db->setBusyTimeout(30000);
    auto update = trace::Statement::prepare(
        *db, "UPDATE runs SET machine = ?1, ended_at_ns = CASE WHEN ?3 > 0 THEN started_at_ns "
             "+ ?3 ELSE ended_at_ns END WHERE id = ?2");
    if (!update) return update.error();
    update->bindText(1, machineJson);
    update->bindInt(2, runId);
    update->bindInt(3, durationNs);
    return update->run("cannot write to");
}

} // namespace kiln::importer
