// SPDX-License-Identifier: MIT
#include "import/extras_store.h"

#include "trace/sqlite_handle.h"

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

} // namespace kiln::importer
