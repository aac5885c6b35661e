// SPDX-License-Identifier: MIT
// The trace file's identity and versions: what a new file looks like, which files are refused
// (and that refusing leaves them byte for byte as they were), and the migration mechanism driven
// by an injected schema history with a test-only version 2.
#include "trace/schema.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"
#include "trace_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace kiln::trace;
using namespace kiln::testing;

namespace {

// Version 1 as shipped plus a version 2 that only these tests know.
SchemaHistory historyWithVersion2(const char* version2Sql) {
    std::vector<Migration> steps = currentSchema().steps();
    steps.push_back({1, "test-only: notes on runs", version2Sql});
    return SchemaHistory(std::move(steps));
}

constexpr const char* kVersion2 = "CREATE TABLE extra(id INTEGER PRIMARY KEY, what TEXT);"
                                  "ALTER TABLE runs ADD COLUMN note TEXT;"
                                  "UPDATE runs SET note = 'migrated';";

} // namespace

class TraceSchemaTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

    // A finished version-1 trace with one run and one line of output.
    std::string makeVersion1Trace(const char* name) {
        std::string file = path(name);
        auto writer = TraceWriter::open(file);
        KILN_ASSERT(writer.ok(), "test fixture");
        auto runId = (*writer)->beginRun(sampleRunInfo("/w/model.py"));
        KILN_ASSERT(runId.ok(), "test fixture");
        (*writer)->output(kiln::OutputStream::Stdout, "hello\n");
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
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(1));
        QCOMPARE(queryTexts(file, "PRAGMA journal_mode"), std::vector<std::string>{"wal"});
        QCOMPARE(currentSchemaVersion(), 1);
        QCOMPARE(kApplicationId, int32_t(0x4B494C4E));
    }

    void version1TablesAndColumns() {
        std::string file = path("tables.kiln");
        QVERIFY(TraceWriter::open(file).ok());
        QCOMPARE(queryTexts(file, "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
                                  "ORDER BY name"),
                 (std::vector<std::string>{"meta", "output", "output_by_run", "runs"}));
        QCOMPARE(queryTexts(file, "SELECT name FROM pragma_table_info('runs') ORDER BY cid"),
                 (std::vector<std::string>{
                     "id", "workload_path", "workload_hash", "mode", "backend", "options_json",
                     "device", "argv", "host", "pid", "started_at_ns", "ended_at_ns", "status",
                     "exit_code", "error_type", "error_message", "error_traceback"}));
        QCOMPARE(queryTexts(file, "SELECT name FROM pragma_table_info('output') ORDER BY cid"),
                 (std::vector<std::string>{"id", "run_id", "seq", "stream", "t_ns", "text"}));
        QCOMPARE(queryTexts(file, "SELECT name FROM pragma_index_info('output_by_run')"),
                 (std::vector<std::string>{"run_id", "id"}));
        QCOMPARE(queryTexts(file, "SELECT \"table\" FROM pragma_foreign_key_list('output')"),
                 std::vector<std::string>{"runs"});
    }

    void metaDescribesFileAndWriter() {
        std::string file = path("meta.kiln");
        {
            auto writer = TraceWriter::open(file);
            QVERIFY(writer.ok());
            QVERIFY((*writer)->setMeta(metakeys::kDevice, "NVIDIA H200").ok());
            QVERIFY((*writer)->setMeta(metakeys::kCudaDriver, "none").ok());
            QVERIFY((*writer)->setMeta(metakeys::kDevice, "cpu").ok()); // replaces
        }
        auto reader = TraceReader::open(file);
        QVERIFY(reader.ok());
        auto meta = (*reader)->meta();
        QVERIFY(meta.ok());
        QCOMPARE(meta->at("schema_version"), std::string("1"));
        QCOMPARE(meta->at("engine_version"), std::string("0.1.0"));
        QCOMPARE(meta->at("device"), std::string("cpu"));
        QCOMPARE(meta->at("cuda_driver"), std::string("none"));
        QVERIFY(!meta->at("host").empty());
        int64_t createdAt = std::stoll(meta->at("created_at_ns"));
        QVERIFY(createdAt > int64_t(1'700'000'000) * 1'000'000'000);
        QCOMPARE(meta->size(), size_t(6));
        QCOMPARE((*reader)->schemaVersion(), 1);
        QVERIFY(!(*reader)->isUpgradedSnapshot());
    }

    void zeroByteFileIsClaimedByWriterButNotRead() {
        std::string file = path("zero.kiln");
        writeFileBytes(file, "");
        auto reader = TraceReader::open(file);
        QVERIFY(!reader.ok());
        QCOMPARE(reader.error().message, "'" + file + "' is not a Kiln trace (an empty database)");
        QVERIFY(TraceWriter::open(file).ok());
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(1));
    }

    void refusesNewerVersionUntouched() {
        std::string file = makeVersion1Trace("newer.kiln");
        QCOMPARE(execSql(file, "PRAGMA user_version = 3"), std::string());
        std::string before = readFileBytes(file);
        std::string expected = "trace '" + file +
                               "' was written by a newer Kiln (schema version 3); this Kiln "
                               "reads up to version 1";
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
        QCOMPARE(writer.error().message,
                 "cannot open trace '" + file + "': unable to open database file");
        auto reader = TraceReader::open(path("missing.kiln"));
        QVERIFY(!reader.ok());
        QVERIFY(reader.error().message.find("cannot open trace") == 0);
        QVERIFY(!QFile::exists(QString::fromStdString(path("missing.kiln"))));
    }

    void readerUpgradesOlderFileInMemoryOnly() {
        std::string file = makeVersion1Trace("reader_upgrade.kiln");
        std::string before = readFileBytes(file);
        SchemaHistory history = historyWithVersion2(kVersion2);
        auto reader = TraceReader::open(file, history);
        QVERIFY2(reader.ok(), reader.ok() ? "" : reader.error().render().c_str());
        QVERIFY((*reader)->isUpgradedSnapshot());
        QCOMPARE((*reader)->schemaVersion(), 1);
        auto runs = (*reader)->listRuns();
        QVERIFY(runs.ok());
        QCOMPARE(runs->size(), size_t(1));
        QCOMPARE(runs->front().workloadPath, std::string("/w/model.py"));
        auto lines = (*reader)->outputLines(runs->front().id);
        QVERIFY(lines.ok());
        QCOMPARE(lines->size(), size_t(1));
        QCOMPARE(lines->front().text, std::string("hello"));
        QCOMPARE((*reader)->meta()->at("schema_version"), std::string("2"));
        QVERIFY(readFileBytes(file) == before);
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(1));
    }

    void writerUpgradesOlderFileInPlace() {
        std::string file = makeVersion1Trace("writer_upgrade.kiln");
        SchemaHistory history = historyWithVersion2(kVersion2);
        {
            auto writer = TraceWriter::open(file, history);
            QVERIFY2(writer.ok(), writer.ok() ? "" : writer.error().render().c_str());
            auto runId = (*writer)->beginRun(sampleRunInfo("/w/second.py"));
            QVERIFY(runId.ok());
            QCOMPARE(runId.value(), int64_t(2));
            QVERIFY((*writer)->finishRun(RunStatus::Ok, 0).ok());
        }
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(2));
        QCOMPARE(queryInt(file, "PRAGMA application_id"), int64_t(kApplicationId));
        QCOMPARE(queryTexts(file, "SELECT note FROM runs ORDER BY id"),
                 (std::vector<std::string>{"migrated", "<null>"}));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM extra"), int64_t(0));
        QCOMPARE(queryTexts(file, "SELECT value FROM meta WHERE key = 'schema_version'"),
                 std::vector<std::string>{"2"});
        // This build only knows version 1, so the upgraded file is now "newer".
        auto reader = TraceReader::open(file);
        QVERIFY(!reader.ok());
        QVERIFY(reader.error().message.find(
                    "(schema version 2); this Kiln reads up to version 1") != std::string::npos);
        auto upgradedReader = TraceReader::open(file, history);
        QVERIFY(upgradedReader.ok());
        QVERIFY(!(*upgradedReader)->isUpgradedSnapshot());
        QCOMPARE((*upgradedReader)->listRuns()->size(), size_t(2));
    }

    void failedMigrationRollsBackEveryStep() {
        std::string file = makeVersion1Trace("failed_upgrade.kiln");
        SchemaHistory history = historyWithVersion2("CREATE TABLE half_done(x);"
                                                    "CREATE TABLE runs(x);");
        auto writer = TraceWriter::open(file, history);
        QVERIFY(!writer.ok());
        QCOMPARE(writer.error().message,
                 "cannot upgrade trace '" + file +
                     "': from schema version 1 to 2: table runs already exists");
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(1));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM sqlite_master WHERE name = 'half_done'"),
                 int64_t(0));
        // Still a healthy version-1 trace.
        auto reader = TraceReader::open(file);
        QVERIFY(reader.ok());
        QCOMPARE((*reader)->listRuns()->size(), size_t(1));
    }

    void newFileIsBuiltByTheSameSteps() {
        // A file created against the two-step history gets both steps, in order.
        std::string file = path("fresh_v2.kiln");
        QVERIFY(TraceWriter::open(file, historyWithVersion2(kVersion2)).ok());
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(2));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM pragma_table_info('runs') "
                                "WHERE name = 'note'"),
                 int64_t(1));
    }
};

QTEST_APPLESS_MAIN(TraceSchemaTest)
#include "tst_trace_schema.moc"
