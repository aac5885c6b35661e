// SPDX-License-Identifier: MIT
#include "import/extras_store.h"

#include "import/torch_trace_import.h"
#include "trace/sqlite_handle.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

namespace kiln::importer {

Status storeImportExtras(const std::string& tracePath, int64_t runId,
                         const std::vector<ImportExtra>& extras) {
    if (extras.empty()) return Status();
    auto db = trace::Connection::open(tracePath, SQLITE_OPEN_READWRITE);
    if (!db) return db.error();
    db->setBusyTimeout(30000);
    auto insert = trace::Statement::prepare(
        *db, "INSERT INTO import_extras(run_id, line, kind, compile_id, envelope, payload) "
             "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    if (!insert) return insert.error();
    if (Status status = db->exec("BEGIN IMMEDIATE", "cannot lock"); !status) return status;
    for (const ImportExtra& extra : extras) {
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

std::string provenanceJson(const ImportSummary& summary) {
    nlohmann::json machine = {{"source", "torch_trace"}};
    if (!summary.pytorchVersion.empty()) machine["pytorch"] = summary.pytorchVersion;
    if (!summary.pythonVersion.empty()) machine["python"] = summary.pythonVersion;
    if (!summary.cudaVersion.empty()) machine["cuda"] = summary.cudaVersion;
    if (summary.rank >= 0) machine["rank"] = summary.rank;
    return machine.dump();
}

Status storeImportProvenance(const std::string& tracePath, int64_t runId,
                             const std::string& machineJson) {
    auto db = trace::Connection::open(tracePath, SQLITE_OPEN_READWRITE);
    if (!db) return db.error();
    db->setBusyTimeout(30000);
    auto update = trace::Statement::prepare(*db, "UPDATE runs SET machine = ?1 WHERE id = ?2");
    if (!update) return update.error();
    update->bindText(1, machineJson);
    update->bindInt(2, runId);
    return update->run("cannot write to");
}

} // namespace kiln::importer
