// SPDX-License-Identifier: MIT
// The trace file's identity and versions: what a new file looks like (every table, column and
// index of the current schema), which files are refused (and that refusing leaves them byte for
// byte as they were), the real upgrade of a version-1 file to the current version by the writer
// (in place) and by the reader (in memory), and the migration mechanism driven by an injected
// schema history with a test-only version 8. The upgrade of a version-2 file, with compiler
// events written after it, is in tst_trace_compiler.cpp; that of a version-3 file, with
// autotuning measurements and machines after it, in tst_trace_measurement.cpp.
#include "support/clock.h"
#include "trace/schema.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"
#include "trace_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace kiln::trace;
using namespace kiln::testing;

namespace {

// Version 8 as shipped plus a version 9 that only these tests know.
SchemaHistory historyWithVersion9(const char* version9Sql) {
    std::vector<Migration> steps = currentSchema().steps();
    steps.push_back({8, "test-only: notes on runs", version9Sql});
    return SchemaHistory(std::move(steps));
}

constexpr const char* kVersion9 = "CREATE TABLE extra(id INTEGER PRIMARY KEY, what TEXT);"
                                  "ALTER TABLE runs ADD COLUMN note TEXT;"
                                  "UPDATE runs SET note = 'migrated';";

// The schema as version 1 of Kiln shipped it: its first step only.
SchemaHistory version1History() {
    return SchemaHistory({currentSchema().steps().at(0)});
}

std::vector<std::string> columnsOf(const std::string& file, const std::string& table) {
    return queryTexts(file, "SELECT name FROM pragma_table_info('" + table + "') ORDER BY cid");
}

} // namespace

class TraceSchemaTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

    // A finished trace of the current version with one run and one line of output.
    std::string makeCurrentTrace(const char* name) {
        std::string file = path(name);
        auto writer = TraceWriter::open(file);
        KILN_ASSERT(writer.ok(), "test fixture");
        auto runId = (*writer)->beginRun(sampleRunInfo("/w/model.py"));
        KILN_ASSERT(runId.ok(), "test fixture");
        (*writer)->output(kiln::OutputStream::Stdout, "hello\n");
        KILN_ASSERT((*writer)->finishRun(RunStatus::Ok, 0).ok(), "test fixture");
        return file;
    }

    // A finished trace as a version-1 Kiln wrote it: one run, two lines of output.
    std::string makeVersion1Trace(const char* name) {
        std::string file = path(name);
        auto writer = TraceWriter::open(file, version1History());
        KILN_ASSERT(writer.ok(), "test fixture");
        KILN_ASSERT((*writer)->beginRun(sampleRunInfo("/w/old.py")).ok(), "test fixture");
        (*writer)->output(kiln::OutputStream::Stdout, "old line 1\nold line 2\n");
        KILN_ASSERT((*writer)->finishRun(RunStatus::Ok, 0).ok(), "test fixture");
        return file;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void newFileCarriesIdentityAndWal() {
        std::string file = path("new.kiln");
        auto writer = TraceWriter::open(file);
        QVERIFY2(writer.ok(), writer.ok() ? "" : writer.error().render().c_str());
        QCOMPARE(queryInt(file, "PRAGMA application_id"), int64_t(0x4B494C4E));
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(8));
        QCOMPARE(queryTexts(file, "PRAGMA journal_mode"), std::vector<std::string>{"wal"});
        QCOMPARE(currentSchemaVersion(), 8);
        QCOMPARE(kCaptureSchemaVersion, 2);
        QCOMPARE(kCompilerSchemaVersion, 3);
        QCOMPARE(kMeasurementSchemaVersion, 4);
        QCOMPARE(kImportSchemaVersion, 5);
        QCOMPARE(kModuleSchemaVersion, 6);
        QCOMPARE(kGuardInstalledSchemaVersion, 7);
        QCOMPARE(kAotGraphSchemaVersion, 8);
        QCOMPARE(kApplicationId, int32_t(0x4B494C4E));
    }

    void tablesColumnsAndIndexes() {
        std::string file = path("tables.kiln");
        QVERIFY(TraceWriter::open(file).ok());
        QCOMPARE(queryTexts(file, "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
                                  "ORDER BY name"),
                 (std::vector<std::string>{"autotune_choices",
                                           "autotune_choices_by_kernel",
                                           "compiles",
                                           "compiles_by_run",
                                           "config",
                                           "diagrams",
                                           "diagrams_by_graph",
                                           "events",
                                           "events_by_run",
                                           "frames",
                                           "frames_by_run",
                                           "graph_breaks",
                                           "graph_breaks_by_run",
                                           "graph_nodes",
                                           "graph_nodes_by_graph",
                                           "graphs",
                                           "graphs_by_compile",
                                           "graphs_by_dynamo_graph",
                                           "graphs_by_run",
                                           "graphs_link_compiled",
                                           "guards",
                                           "guards_by_compile",
                                           "guards_by_run",
                                           "import_extras",
                                           "import_extras_by_run",
                                           "kernel_launches",
                                           "kernel_launches_by_kernel",
                                           "kernel_launches_by_run",
                                           "kernels",
                                           "kernels_by_compile",
                                           "kernels_by_graph",
                                           "meta",
                                           "output",
                                           "output_by_run",
                                           "recompiles",
                                           "recompiles_by_run",
                                           "runs"}));
        QCOMPARE(queryTexts(file, "SELECT name FROM pragma_table_info('runs') ORDER BY cid"),
                 (std::vector<std::string>{
                     "id", "workload_path", "workload_hash", "mode", "backend", "options_json",
                     "device", "argv", "host", "pid", "started_at_ns", "ended_at_ns", "status",
                     "exit_code", "error_type", "error_message", "error_traceback", "machine"}));
        QCOMPARE(queryTexts(file, "SELECT name FROM pragma_table_info('output') ORDER BY cid"),
                 (std::vector<std::string>{"id", "run_id", "seq", "stream", "t_ns", "text"}));
        QCOMPARE(queryTexts(file, "SELECT name FROM pragma_index_info('output_by_run')"),
                 (std::vector<std::string>{"run_id", "id"}));
        QCOMPARE(queryTexts(file, "SELECT \"table\" FROM pragma_foreign_key_list('output')"),
                 std::vector<std::string>{"runs"});
    }

    void version2CaptureTables() {
        std::string file = path("capture_tables.kiln");
        QVERIFY(TraceWriter::open(file).ok());
        using Names = std::vector<std::string>;
        QCOMPARE(columnsOf(file, "frames"),
                 (Names{"id", "run_id", "frame_id", "function", "file", "line", "kind",
                        "parent_frame_id", "resume_line"}));
        QCOMPARE(
            columnsOf(file, "compiles"),
            (Names{"id", "run_id", "compile_id", "frame_id", "compile_index", "reason", "start_ns",
                   "duration_ns", "status", "failure", "backend", "mode", "phases_json"}));
        QCOMPARE(columnsOf(file, "guards"),
                 (Names{"id", "run_id", "compile_id", "kind", "source", "expression", "expected",
                        "user_line", "installed"}));
        QCOMPARE(columnsOf(file, "recompiles"),
                 (Names{"id", "run_id", "compile_id", "failed_compile_id", "guard_source",
                        "expected", "actual", "reason"}));
        QCOMPARE(columnsOf(file, "graph_breaks"),
                 (Names{"id", "run_id", "compile_id", "ord", "file", "line", "col", "reason_kind",
                        "reason", "user_stack"}));
        QCOMPARE(columnsOf(file, "graphs"),
                 (Names{"id", "run_id", "compile_id", "graph_index", "readable_code", "node_count",
                        "op_count", "kind", "dynamo_graph_id", "saved_tensors", "saved_count",
                        "saved_bytes"}));
        QCOMPARE(columnsOf(file, "graph_nodes"),
                 (Names{"id", "graph_id", "ord", "name", "op", "target", "args", "shape", "dtype",
                        "source_line", "module_path", "module_type"}));
        QCOMPARE(columnsOf(file, "config"),
                 (Names{"id", "run_id", "key", "value", "default_value", "source"}));
        QCOMPARE(columnsOf(file, "events"), (Names{"id", "run_id", "category", "name", "compile_id",
                                                   "start_ns", "duration_ns", "detail_json"}));
        // Every capture table but graph_nodes names its run; graph_nodes names its graph.
        for (const char* table :
             {"frames", "compiles", "guards", "recompiles", "graph_breaks", "config", "events"})
            QCOMPARE(queryTexts(file, std::string("SELECT \"table\" || '.' || \"to\" || '<-' || "
                                                  "\"from\" FROM pragma_foreign_key_list('") +
                                          table + "')"),
                     Names{"runs.id<-run_id"});
        // An AOT graph names the Dynamo graph it was made from.
        QCOMPARE(queryTexts(file, "SELECT \"table\" || '.' || \"to\" || '<-' || \"from\" "
                                  "FROM pragma_foreign_key_list('graphs') ORDER BY 1"),
                 (Names{"graphs.id<-dynamo_graph_id", "runs.id<-run_id"}));
        QCOMPARE(queryTexts(file, "SELECT \"table\" || '.' || \"to\" || '<-' || \"from\" "
                                  "FROM pragma_foreign_key_list('graph_nodes')"),
                 Names{"graphs.id<-graph_id"});
        // The uniqueness the writer's upserts rely on.
        auto uniqueColumns = [&](const char* table) {
            return queryTexts(file, std::string("SELECT group_concat(i.name, ',') FROM "
                                                "pragma_index_list('") +
                                        table +
                                        "') l, pragma_index_info(l.name) i WHERE l.\"unique\" "
                                        "GROUP BY l.name");
        };
        QCOMPARE(uniqueColumns("frames"), Names{"run_id,frame_id"});
        QCOMPARE(uniqueColumns("compiles"), Names{"run_id,compile_id"});
        QCOMPARE(uniqueColumns("config"), Names{"run_id,key"});
        QCOMPARE(queryTexts(file, "SELECT name FROM pragma_index_info('guards_by_compile')"),
                 (Names{"run_id", "compile_id", "id"}));
        QCOMPARE(queryTexts(file, "SELECT name FROM pragma_index_info('graph_nodes_by_graph')"),
                 (Names{"graph_id", "ord"}));
    }

    void version3CompilerTables() {
        std::string file = path("compiler_tables.kiln");
        QVERIFY(TraceWriter::open(file).ok());
        using Names = std::vector<std::string>;
        QCOMPARE(
            columnsOf(file, "kernels"),
            (Names{"id", "run_id", "graph_id", "compile_id", "graph_index", "kernel_id", "name",
                   "kind", "fused_nodes", "source_code", "launch_config", "graph_kind"}));
        QCOMPARE(columnsOf(file, "autotune_choices"),
                 (Names{"id", "run_id", "kernel_id", "candidate", "time_ns", "chosen", "runs",
                        "min_ns", "max_ns", "stopped_early", "from_cache"}));
        QCOMPARE(columnsOf(file, "kernel_launches"),
                 (Names{"id", "run_id", "kernel_id", "start_ns", "end_ns", "device", "grid",
                        "block", "registers", "shared_memory"}));
        QCOMPARE(columnsOf(file, "diagrams"),
                 (Names{"id", "run_id", "graph_id", "compile_id", "graph_index", "kind", "dot"}));
        auto foreignKeys = [&](const char* table) {
            return queryTexts(file, std::string("SELECT \"table\" || '.' || \"to\" || '<-' || "
                                                "\"from\" FROM pragma_foreign_key_list('") +
                                        table + "') ORDER BY \"from\"");
        };
        QCOMPARE(foreignKeys("kernels"), (Names{"graphs.id<-graph_id", "runs.id<-run_id"}));
        QCOMPARE(foreignKeys("diagrams"), (Names{"graphs.id<-graph_id", "runs.id<-run_id"}));
        QCOMPARE(foreignKeys("autotune_choices"), Names{"runs.id<-run_id"});
        QCOMPARE(foreignKeys("kernel_launches"), Names{"runs.id<-run_id"});
        auto indexColumns = [&](const char* index) {
            return queryTexts(file,
                              std::string("SELECT name FROM pragma_index_info('") + index + "')");
        };
        QCOMPARE(indexColumns("graphs_by_compile"), (Names{"run_id", "compile_id", "graph_index"}));
        QCOMPARE(indexColumns("kernels_by_graph"), (Names{"graph_id", "id"}));
        QCOMPARE(indexColumns("kernels_by_compile"),
                 (Names{"run_id", "compile_id", "graph_index"}));
        QCOMPARE(indexColumns("autotune_choices_by_kernel"), (Names{"run_id", "kernel_id"}));
        QCOMPARE(indexColumns("kernel_launches_by_kernel"), (Names{"run_id", "kernel_id"}));
        QCOMPARE(indexColumns("kernel_launches_by_run"), (Names{"run_id", "id"}));
        QCOMPARE(indexColumns("diagrams_by_graph"), (Names{"graph_id", "kind"}));
        auto uniqueColumns = [&](const char* table) {
            return queryTexts(file, std::string("SELECT group_concat(i.name, ',') FROM "
                                                "pragma_index_list('") +
                                        table +
                                        "') l, pragma_index_info(l.name) i WHERE l.\"unique\" "
                                        "GROUP BY l.name");
        };
        QCOMPARE(uniqueColumns("kernels"), Names{"run_id,kernel_id"});
        QCOMPARE(uniqueColumns("diagrams"), Names{"run_id,compile_id,graph_index,kind"});
        QCOMPARE(queryTexts(file, "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger'"),
                 Names{"graphs"});
    }

    void metaDescribesFileAndWriter() {
        std::string file = path("meta.kiln");
        {
            auto writer = TraceWriter::open(file);
            QVERIFY(writer.ok());
            QVERIFY((*writer)->setMeta(metakeys::kDevice, "NVIDIA H200").ok());
            QVERIFY((*writer)->setMeta(metakeys::kCudaDriver, "none").ok());
            QVERIFY((*writer)->setMeta(metakeys::kDevice, "cpu").ok()); // replaces
            // What the runner reports of the machine (version 4's keys).
            QVERIFY((*writer)->setMeta(metakeys::kCpu, "AMD EPYC 9B14").ok());
            QVERIFY((*writer)->setMeta(metakeys::kCpuIsa, "avx512").ok());
            QVERIFY((*writer)->setMeta(metakeys::kThreads, "2").ok());
            QVERIFY((*writer)
                        ->setMeta(metakeys::kMatmulLibrary,
                                  "float32: oneDNN 2.6.3 (avx512_core_bf16); float64: BLIS 0.9.0")
                        .ok());
        }
        auto reader = TraceReader::open(file);
        QVERIFY(reader.ok());
        auto meta = (*reader)->meta();
        QVERIFY(meta.ok());
        QCOMPARE(meta->at("schema_version"), std::string("8"));
        QCOMPARE(meta->at("engine_version"), std::string("0.1.0"));
        QCOMPARE(meta->at("device"), std::string("cpu"));
        QCOMPARE(meta->at("cuda_driver"), std::string("none"));
        QCOMPARE(meta->at("cpu"), std::string("AMD EPYC 9B14"));
        QCOMPARE(meta->at("cpu_isa"), std::string("avx512"));
        QCOMPARE(meta->at("threads"), std::string("2"));
        QCOMPARE(meta->at("matmul_library"),
                 std::string("float32: oneDNN 2.6.3 (avx512_core_bf16); float64: BLIS 0.9.0"));
        QVERIFY(!meta->at("host").empty());
        int64_t createdAt = std::stoll(meta->at("created_at_ns"));
        QVERIFY(createdAt > int64_t(1'700'000'000) * 1'000'000'000);
        QCOMPARE(meta->size(), size_t(10));
        QCOMPARE((*reader)->schemaVersion(), 8);
        QVERIFY(!(*reader)->isUpgradedSnapshot());
    }

    void zeroByteFileIsClaimedByWriterButNotRead() {
        std::string file = path("zero.kiln");
        writeFileBytes(file, "");
        auto reader = TraceReader::open(file);
        QVERIFY(!reader.ok());
        QCOMPARE(reader.error().message, "'" + file + "' is not a Kiln trace (an empty database)");
        QVERIFY(TraceWriter::open(file).ok());
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(8));
    }

    void refusesANegativeVersionUntouched() {
        // Found by fuzz_trace_reader: a damaged header's negative user_version indexed the
        // migration steps out of bounds.
        std::string file = makeCurrentTrace("negative.kiln");
        QCOMPARE(execSql(file, "PRAGMA user_version = -83951611"), std::string());
        std::string before = readFileBytes(file);
        std::string expected =
            "'" + file + "' is not a Kiln trace (damaged: its schema version is -83951611)";
        auto reader = TraceReader::open(file);
        QVERIFY(!reader.ok());
        QCOMPARE(reader.error().message, expected);
        auto writer = TraceWriter::open(file);
        QVERIFY(!writer.ok());
        QCOMPARE(writer.error().message, expected);
        QVERIFY(readFileBytes(file) == before);
    }

    void refusesNewerVersionUntouched() {
        std::string file = makeCurrentTrace("newer.kiln");
        QCOMPARE(execSql(file, "PRAGMA user_version = 9"), std::string());
        std::string before = readFileBytes(file);
        std::string expected = "trace '" + file +
                               "' was written by a newer Kiln (schema version 9); this Kiln "
                               "reads up to version 8";
        auto writer = TraceWriter::open(file);
        QVERIFY(!writer.ok());
        QCOMPARE(writer.error().message, expected);
        QCOMPARE(writer.error().kind, std::string("TraceError"));
        auto reader = TraceReader::open(file);
        QVERIFY(!reader.ok());
        QCOMPARE(reader.error().message, expected);
        QVERIFY(readFileBytes(file) == before);
        auto marked = TraceWriter::markRunsCrashed(file, 1, 139, "x");
        QVERIFY(!marked.ok());
        QVERIFY(readFileBytes(file) == before);
    }

    void refusesForeignSqliteUntouched() {
        std::string file = path("foreign.db");
        QCOMPARE(execSql(file, "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('x');"),
                 std::string());
        std::string before = readFileBytes(file);
        QVERIFY(before.size() >= 1024);
        std::string expected = "'" + file +
                               "' is not a Kiln trace (a SQLite database with application_id "
                               "0x00000000, Kiln uses 0x4b494c4e)";
        auto writer = TraceWriter::open(file);
        QVERIFY(!writer.ok());
        QCOMPARE(writer.error().message, expected);
        auto reader = TraceReader::open(file);
        QVERIFY(!reader.ok());
        QCOMPARE(reader.error().message, expected);
        QVERIFY(readFileBytes(file) == before);
        QCOMPARE(queryInt(file, "PRAGMA application_id"), int64_t(0));
        QCOMPARE(queryTexts(file, "PRAGMA journal_mode"), std::vector<std::string>{"delete"});
    }

    void refusesOtherApplicationIdUntouched() {
        std::string file = path("other_app.db");
        QCOMPARE(execSql(file, "PRAGMA application_id = 1234; PRAGMA user_version = 1;"),
                 std::string());
        std::string before = readFileBytes(file);
        auto writer = TraceWriter::open(file);
        QVERIFY(!writer.ok());
        QVERIFY(writer.error().message.find("application_id 0x000004d2") != std::string::npos);
        QVERIFY(readFileBytes(file) == before);
    }

    void refusesNonSqliteUntouched() {
        std::string file = path("notes.txt");
        std::string text;
        for (int i = 0; i < 200; ++i)
            text += "this is a text file, not a database " + std::to_string(i) + "\n";
        writeFileBytes(file, text);
        std::string expected = "'" + file + "' is not a Kiln trace (file is not a database)";
        auto writer = TraceWriter::open(file);
        QVERIFY(!writer.ok());
        QCOMPARE(writer.error().message, expected);
        auto reader = TraceReader::open(file);
        QVERIFY(!reader.ok());
        QCOMPARE(reader.error().message, expected);
        QVERIFY(readFileBytes(file) == text);
    }

    void reportsUnopenablePath() {
        std::string file = path("no/such/dir/run.kiln");
        auto writer = TraceWriter::open(file);
        QVERIFY(!writer.ok());
        QCOMPARE(writer.error().message, "cannot open trace '" + file + "': the directory '" +
                                             path("no/such/dir") + "' does not exist");
        auto reader = TraceReader::open(path("missing.kiln"));
        QVERIFY(!reader.ok());
        QVERIFY(reader.error().message.find("cannot open trace") == 0);
        QVERIFY(!QFile::exists(QString::fromStdString(path("missing.kiln"))));
    }

    void readerUpgradesVersion1FileInMemory() {
        std::string file = makeVersion1Trace("v1_reader.kiln");
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(1));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM sqlite_master WHERE name = 'compiles'"),
                 int64_t(0));
        std::string before = readFileBytes(file);
        auto reader = TraceReader::open(file);
        QVERIFY2(reader.ok(), reader.ok() ? "" : reader.error().render().c_str());
        QVERIFY((*reader)->isUpgradedSnapshot());
        QCOMPARE((*reader)->schemaVersion(), 1);
        QCOMPARE((*reader)->meta()->at("schema_version"), std::string("8"));
        auto runs = (*reader)->listRuns();
        QVERIFY(runs.ok());
        QCOMPARE(runs->size(), size_t(1));
        QCOMPARE(runs->front().workloadPath, std::string("/w/old.py"));
        QCOMPARE(runs->front().status, RunStatus::Ok);
        QVERIFY(runs->front().machineJson.empty()); // version 1 did not record it
        QVERIFY(!runs->front().machine.recorded());
        auto lines = (*reader)->outputLines(1);
        QVERIFY(lines.ok());
        QCOMPARE(lines->size(), size_t(2));
        QCOMPARE(lines->back().text, std::string("old line 2"));
        // The capture tables exist in the snapshot, empty: an old run simply has no capture.
        QCOMPARE((*reader)->frames(1)->size(), size_t(0));
        QCOMPARE((*reader)->compiles(1)->size(), size_t(0));
        QCOMPARE((*reader)->guards(1)->size(), size_t(0));
        QCOMPARE((*reader)->recompiles(1)->size(), size_t(0));
        QCOMPARE((*reader)->graphBreaks(1)->size(), size_t(0));
        QCOMPARE((*reader)->graphs(1)->size(), size_t(0));
        QCOMPARE((*reader)->graphNodes(1)->size(), size_t(0));
        QCOMPARE((*reader)->config(1)->size(), size_t(0));
        QCOMPARE((*reader)->events(1)->size(), size_t(0));
        QCOMPARE((*reader)->kernels(1)->size(), size_t(0));
        QCOMPARE((*reader)->kernelLaunches(1)->size(), size_t(0));
        // The file is as the old Kiln left it.
        QVERIFY(readFileBytes(file) == before);
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(1));
        QCOMPARE(queryTexts(file, "SELECT value FROM meta WHERE key = 'schema_version'"),
                 std::vector<std::string>{"1"});
    }

    void writerUpgradesVersion1FileInPlace() {
        std::string file = makeVersion1Trace("v1_writer.kiln");
        {
            auto writer = TraceWriter::open(file);
            QVERIFY2(writer.ok(), writer.ok() ? "" : writer.error().render().c_str());
            auto runId = (*writer)->beginRun(sampleRunInfo("/w/new.py"));
            QVERIFY(runId.ok());
            QCOMPARE(runId.value(), int64_t(2));
            (*writer)->frame(sampleFrame(0));
            kiln::CompileEvent start = sampleCompileStart(0, 0, kiln::monotonicNs());
            (*writer)->compile(start);
            (*writer)->guard(sampleGuard("0/0", 0));
            (*writer)->graph(sampleGraph("0/0", 0, 3));
            (*writer)->compile(sampleCompileFinish(start, "ok", 1'000'000));
            (*writer)->output(kiln::OutputStream::Stdout, "new line\n");
            QVERIFY((*writer)->finishRun(RunStatus::Ok, 0).ok());
        }
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(8));
        QCOMPARE(queryInt(file, "PRAGMA application_id"), int64_t(kApplicationId));
        QCOMPARE(queryTexts(file, "SELECT value FROM meta WHERE key = 'schema_version'"),
                 std::vector<std::string>{"8"});
        QCOMPARE(queryInt(file, "SELECT count(*) FROM sqlite_master WHERE type = 'table'"),
                 int64_t(17));
        auto reader = TraceReader::open(file);
        QVERIFY(reader.ok());
        QVERIFY(!(*reader)->isUpgradedSnapshot());
        QCOMPARE((*reader)->schemaVersion(), 8);
        // The old run kept its rows; the new one has its capture facts.
        QCOMPARE((*reader)->listRuns()->size(), size_t(2));
        QCOMPARE((*reader)->outputLines(1)->size(), size_t(2));
        QCOMPARE((*reader)->outputLines(2)->front().text, std::string("new line"));
        QVERIFY((*reader)->compiles(1)->empty());
        auto compiles = (*reader)->compiles(2);
        QCOMPARE(compiles->size(), size_t(1));
        QCOMPARE(compiles->front().status, std::string("ok"));
        QCOMPARE((*reader)->frames(2)->size(), size_t(1));
        QCOMPARE((*reader)->guards(2, "0/0")->size(), size_t(1));
        auto graphs = (*reader)->graphs(2);
        QCOMPARE(graphs->size(), size_t(1));
        QCOMPARE((*reader)->graphNodes(graphs->front().id)->size(), size_t(3));
    }

    void readerUpgradesOlderFileInMemoryOnly() {
        std::string file = makeCurrentTrace("reader_upgrade.kiln");
        std::string before = readFileBytes(file);
        SchemaHistory history = historyWithVersion9(kVersion9);
        auto reader = TraceReader::open(file, history);
        QVERIFY2(reader.ok(), reader.ok() ? "" : reader.error().render().c_str());
        QVERIFY((*reader)->isUpgradedSnapshot());
        QCOMPARE((*reader)->schemaVersion(), 8);
        auto runs = (*reader)->listRuns();
        QVERIFY(runs.ok());
        QCOMPARE(runs->size(), size_t(1));
        QCOMPARE(runs->front().workloadPath, std::string("/w/model.py"));
        auto lines = (*reader)->outputLines(runs->front().id);
        QVERIFY(lines.ok());
        QCOMPARE(lines->size(), size_t(1));
        QCOMPARE(lines->front().text, std::string("hello"));
        QCOMPARE((*reader)->meta()->at("schema_version"), std::string("9"));
        QVERIFY(readFileBytes(file) == before);
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(8));
    }

    void writerUpgradesOlderFileInPlace() {
        std::string file = makeCurrentTrace("writer_upgrade.kiln");
        SchemaHistory history = historyWithVersion9(kVersion9);
        {
            auto writer = TraceWriter::open(file, history);
            QVERIFY2(writer.ok(), writer.ok() ? "" : writer.error().render().c_str());
            auto runId = (*writer)->beginRun(sampleRunInfo("/w/second.py"));
            QVERIFY(runId.ok());
            QCOMPARE(runId.value(), int64_t(2));
            (*writer)->frame(sampleFrame(0)); // a later history keeps the capture tables
            QVERIFY((*writer)->finishRun(RunStatus::Ok, 0).ok());
        }
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(9));
        QCOMPARE(queryInt(file, "PRAGMA application_id"), int64_t(kApplicationId));
        QCOMPARE(queryTexts(file, "SELECT note FROM runs ORDER BY id"),
                 (std::vector<std::string>{"migrated", "<null>"}));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM extra"), int64_t(0));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM frames WHERE run_id = 2"), int64_t(1));
        QCOMPARE(queryTexts(file, "SELECT value FROM meta WHERE key = 'schema_version'"),
                 std::vector<std::string>{"9"});
        // This build only knows version 8, so the upgraded file is now "newer".
        auto reader = TraceReader::open(file);
        QVERIFY(!reader.ok());
        QVERIFY(reader.error().message.find(
                    "(schema version 9); this Kiln reads up to version 8") != std::string::npos);
        auto upgradedReader = TraceReader::open(file, history);
        QVERIFY(upgradedReader.ok());
        QVERIFY(!(*upgradedReader)->isUpgradedSnapshot());
        QCOMPARE((*upgradedReader)->listRuns()->size(), size_t(2));
    }

    void failedMigrationRollsBackEveryStep() {
        // From version 1, so that good steps (1 -> 2 -> 3 -> 4 -> 5 -> 6 -> 7 -> 8) are rolled back
        // with the failing one.
        std::string file = makeVersion1Trace("failed_upgrade.kiln");
        SchemaHistory history = historyWithVersion9("CREATE TABLE half_done(x);"
                                                    "CREATE TABLE runs(x);");
        auto writer = TraceWriter::open(file, history);
        QVERIFY(!writer.ok());
        QCOMPARE(writer.error().message,
                 "cannot upgrade trace '" + file +
                     "': from schema version 8 to 9: table runs already exists");
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(1));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM sqlite_master WHERE name IN "
                                "('half_done', 'frames', 'compiles', 'kernels')"),
                 int64_t(0));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM pragma_table_info('runs') "
                                "WHERE name = 'machine'"),
                 int64_t(0));
        // Still a healthy version-1 trace, which this build upgrades.
        auto reader = TraceReader::open(file);
        QVERIFY(reader.ok());
        QCOMPARE((*reader)->listRuns()->size(), size_t(1));
        QVERIFY(TraceWriter::open(file).ok());
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(8));
    }

    void newFileIsBuiltByTheSameSteps() {
        // A file created against the five-step history gets every step, in order.
        std::string file = path("fresh_v9.kiln");
        QVERIFY(TraceWriter::open(file, historyWithVersion9(kVersion9)).ok());
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(9));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM pragma_table_info('runs') "
                                "WHERE name = 'note'"),
                 int64_t(1));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM sqlite_master WHERE name = 'graph_nodes'"),
                 int64_t(1));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM sqlite_master WHERE name = 'kernels'"),
                 int64_t(1));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM pragma_table_info('autotune_choices') "
                                "WHERE name = 'from_cache'"),
                 int64_t(1));
    }
};

QTEST_APPLESS_MAIN(TraceSchemaTest)
#include "tst_trace_schema.moc"
