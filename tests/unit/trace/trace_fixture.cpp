// SPDX-License-Identifier: MIT
#include "trace_fixture.h"

#include <fstream>
#include <iterator>
#include <sqlite3.h>

namespace kiln::testing {

std::string readFileBytes(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

void writeFileBytes(const std::string& path, const std::string& bytes) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << bytes;
}

std::string execSql(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    char* message = nullptr;
    std::string error;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK)
        error = message ? message : "failed";
    sqlite3_free(message);
    sqlite3_close(db);
    return error;
}

std::vector<std::string> queryTexts(const std::string& path, const std::string& sql) {
    std::vector<std::string> texts;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK) {
            while (sqlite3_step(stmt) == SQLITE_ROW) {
                const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
                texts.push_back(text ? text : "<null>");
            }
        }
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db);
    return texts;
}

int64_t queryInt(const std::string& path, const std::string& sql) {
    std::vector<std::string> texts = queryTexts(path, sql);
    if (texts.empty() || texts.front() == "<null>") return -1;
    return std::stoll(texts.front());
}

trace::RunInfo sampleRunInfo(const std::string& workloadPath) {
    trace::RunInfo info;
    info.workloadPath = workloadPath;
    info.workloadHash = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    info.mode = "max-autotune";
    info.backend = "inductor";
    info.optionsJson = R"({"trace.graph_diagram": true})";
    info.device = "cpu";
    info.argv = {"kiln", "run", workloadPath, "--mode=max-autotune"};
    return info;
}

} // namespace kiln::testing
