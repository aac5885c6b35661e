// SPDX-License-Identifier: MIT
// Schema version 4: where timings come from. Autotune choices keep how their time was measured
// (timed runs, fastest and slowest, an early stop, the tuning cache) with NULL for "not known";
// runs keep the machine they ran on as JSON, which the reader decodes (and survives when it is
// malformed); the machine summaries and differences the CLI and Studio share; and a real
// version-3 file is upgraded by the writer (in place) and by the reader (in memory), its old rows
// reading "not recorded".
#include "trace/machine_info.h"
#include "trace/schema.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"
#include "trace_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace kiln::trace;
using namespace kiln::testing;
using kiln::AutotuneChoiceEvent;

namespace {

// The schema as a version-3 Kiln shipped it: its first three steps.
SchemaHistory version3History() {
    const auto& steps = currentSchema().steps();
    return SchemaHistory({steps.at(0), steps.at(1), steps.at(2)});
}

template <typename T>
T rows(kiln::Expected<T> result) {
    KILN_ASSERT(result.ok(), "test: query failed");
    return std::move(result).value();
}

RunInfo runOn(const std::string& workload, const std::string& machineJson) {
    RunInfo info = sampleRunInfo(workload);
    info.machineJson = machineJson;
    return info;
}

MachineInfo machine(std::string cpu, std::string isa, int64_t threads,
                    std::vector<std::pair<std::string, std::string>> matmul) {
    return MachineInfo{std::move(cpu), std::move(isa), threads, std::move(matmul)};
}

std::vector<std::string> differenceTexts(const MachineInfo& a, const MachineInfo& b) {
    std::vector<std::string> texts;
    for (const MachineDifference& d : machineDifferences(a, b))
        texts.push_back(d.what + ": " + d.a + " | " + d.b);
    return texts;
}

} // namespace

class TraceMeasurementTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void autotuneMeasurementsRoundTrip() {
        std::string file = path("measured.kiln");
        {
            auto writer = openWriter(file);
            QVERIFY(writer->beginRun(sampleRunInfo("/w/model.py")).ok());
            writer->kernel(sampleKernel(1, "0/0", 0));
            AutotuneChoiceEvent best = sampleChoice(1, "template tile=64x64x32", 30'000, 9);
            best.chosen = true;
            writer->autotuneChoice(best);
            AutotuneChoiceEvent slow = sampleChoice(1, "extern_mm (BLAS)", 95'000, 1);
            slow.minNs = slow.maxNs = slow.timeNs; // the one run it got
            slow.stoppedEarly = true;
            writer->autotuneChoice(slow);
            AutotuneChoiceEvent cached = sampleChoice(1, "template tile=32x32x16", 41'000, 5);
            cached.fromCache = true;
            writer->autotuneChoice(cached);
            AutotuneChoiceEvent unknown; // an engine that does not say how it measured
            unknown.kernelId = 1;
            unknown.candidate = "template tile=16x16x16";
            unknown.timeNs = 52'000;
            unknown.minNs = 1; // meaningless without a run count: not stored
            unknown.maxNs = 2;
            writer->autotuneChoice(unknown);
            QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
        }
        auto reader = openReader(file);
        auto choices = rows(reader->autotuneChoices(1, 1));
        QCOMPARE(choices.size(), size_t(4));
        const AutotuneChoiceRow& best = choices[0];
        QCOMPARE(best.candidate, std::string("template tile=64x64x32"));
        QCOMPARE(best.timeNs, int64_t(30'000));
        QVERIFY(best.chosen);
        QCOMPARE(best.runs, 9);
        QCOMPARE(best.minNs, int64_t(27'000));
        QCOMPARE(best.maxNs, int64_t(33'000));
        QVERIFY(best.hasSpread());
        QCOMPARE(best.stoppedEarly, std::optional<bool>(false));
        QCOMPARE(best.fromCache, std::optional<bool>(false));
        const AutotuneChoiceRow& slow = choices[1];
        QCOMPARE(slow.runs, 1);
        QVERIFY(!slow.hasSpread());
        QCOMPARE(slow.minNs, int64_t(95'000));
        QCOMPARE(slow.stoppedEarly, std::optional<bool>(true));
        QCOMPARE(slow.fromCache, std::optional<bool>(false));
        QCOMPARE(choices[2].fromCache, std::optional<bool>(true));
        QCOMPARE(choices[2].runs, 5);
        const AutotuneChoiceRow& unknown = choices[3];
        QCOMPARE(unknown.runs, 0);
        QCOMPARE(unknown.minNs, int64_t(0));
        QCOMPARE(unknown.maxNs, int64_t(0));
        QCOMPARE(unknown.stoppedEarly, std::optional<bool>(false)); // version 4 always says
        // The columns as stored: NULL for what is not known, 0/1 for the flags.
        QCOMPARE(queryTexts(file, "SELECT coalesce(runs, 'NULL') || ',' || "
                                  "coalesce(min_ns, 'NULL') || ',' || coalesce(max_ns, 'NULL') "
                                  "|| ',' || stopped_early || ',' || from_cache "
                                  "FROM autotune_choices ORDER BY id"),
                 (std::vector<std::string>{"9,27000,33000,0,0", "1,95000,95000,1,0",
                                           "5,36900,45100,0,1", "NULL,NULL,NULL,0,0"}));
        // The run-wide query reads the same columns.
        auto ofRun = rows(reader->autotuneChoicesOfRun(1, choices[1].id));
        QCOMPARE(ofRun.size(), size_t(2));
        QCOMPARE(ofRun[0].fromCache, std::optional<bool>(true));
    }

    void machineIsStoredAndDecoded() {
        std::string file = path("machines.kiln");
        {
            auto writer = openWriter(file);
            const std::string machines[] = {
                sampleMachineJson(2),
                "", // not reported
                "{not json",
                "[1, 2]",
                R"({"cpu": "Intel Xeon Platinum 8480+", "threads": "8", "matmul": "oneDNN"})",
            };
            for (const std::string& json : machines) {
                QVERIFY(writer->beginRun(runOn("/w/model.py", json)).ok());
                QVERIFY(writer->finishRun(RunStatus::Ok, 0).ok());
            }
        }
        QCOMPARE(queryTexts(file, "SELECT coalesce(machine, 'NULL') FROM runs WHERE id = 2"),
                 std::vector<std::string>{"NULL"});
        auto runs = rows(openReader(file)->listRuns());
        QCOMPARE(runs.size(), size_t(5));
        const RunRow& full = runs[0];
        QCOMPARE(full.machineJson, sampleMachineJson(2));
        QVERIFY(full.machine.recorded());
        QCOMPARE(full.machine.cpu, std::string("AMD EPYC 9B14"));
        QCOMPARE(full.machine.isa, std::string("avx512"));
        QCOMPARE(full.machine.threads, int64_t(2));
        using Pairs = std::vector<std::pair<std::string, std::string>>;
        QCOMPARE(full.machine.matmul,
                 (Pairs{{"float32", "oneDNN 2.6.3 (avx512_core_bf16)"},
                        {"bfloat16", "oneDNN 2.6.3 (avx512_core_bf16), native"},
                        {"float64", "BLIS 0.9.0 (zen3)"}}));
        QCOMPARE(full.machine.matmulOf("float64"), std::string("BLIS 0.9.0 (zen3)"));
        QCOMPARE(full.machine.matmulOf("float16"), std::string());
        QVERIFY(!runs[1].machine.recorded());
        QVERIFY(runs[1].machineJson.empty());
        // Malformed or not an object: kept as written, decoded as nothing, the list still reads.
        QCOMPARE(runs[2].machineJson, std::string("{not json"));
        QVERIFY(!runs[2].machine.recorded());
        QVERIFY(!runs[3].machine.recorded());
        // Partial: what is there; a number as text is still a number; a matmul that is not an
        // object lists no libraries.
        QCOMPARE(runs[4].machine.cpu, std::string("Intel Xeon Platinum 8480+"));
        QCOMPARE(runs[4].machine.isa, std::string());
        QCOMPARE(runs[4].machine.threads, int64_t(8));
        QVERIFY(runs[4].machine.matmul.empty());
        // One run by id decodes the same way.
        QCOMPARE(rows(openReader(file)->run(1)).machine, full.machine);
    }

    void summariesAndDifferences() {
        MachineInfo epyc = machine(
            "AMD EPYC 9B14", "avx512", 2,
            {{"float32", "oneDNN 2.6.3 (avx512_core_bf16)"}, {"float64", "BLIS 0.9.0 (zen3)"}});
        QCOMPARE(machineSummary(epyc), std::string("AMD EPYC 9B14 (avx512, 2 threads)"));
        QCOMPARE(matmulSummary(epyc),
                 std::string("float32: oneDNN 2.6.3 (avx512_core_bf16); float64: BLIS 0.9.0 "
                             "(zen3)"));
        QCOMPARE(machineSummary(machine("", "avx2", 1, {})), std::string("avx2, 1 thread"));
        QCOMPARE(machineSummary(machine("Apple M2", "", 0, {})), std::string("Apple M2"));
        QCOMPARE(machineSummary(MachineInfo{}), std::string());
        QCOMPARE(matmulSummary(MachineInfo{}), std::string());

        QVERIFY(machineDifferences(epyc, epyc).empty());
        MachineInfo xeon = machine("Intel Xeon Platinum 8480+", "avx512", 8,
                                   {{"float32", "oneDNN 2.6.3 (avx512_core_amx)"},
                                    {"float64", "BLIS 0.9.0 (zen3)"},
                                    {"bfloat16", "oneDNN 2.6.3 (avx512_core_amx), native"}});
        QCOMPARE(differenceTexts(epyc, xeon),
                 (std::vector<std::string>{
                     "CPU: AMD EPYC 9B14 | Intel Xeon Platinum 8480+", "threads: 2 | 8",
                     "float32 matmul: oneDNN 2.6.3 (avx512_core_bf16) | oneDNN 2.6.3 "
                     "(avx512_core_amx)",
                     "bfloat16 matmul: none | oneDNN 2.6.3 (avx512_core_amx), native"}));
        // The same CPU capped to AVX2: only the instruction set differs.
        MachineInfo capped = epyc;
        capped.isa = "avx2";
        QCOMPARE(differenceTexts(epyc, capped), std::vector<std::string>{"ISA: avx512 | avx2"});
        // An unknown machine is not a different one.
        QVERIFY(machineDifferences(epyc, MachineInfo{}).empty());
        QVERIFY(machineDifferences(MachineInfo{}, MachineInfo{}).empty());
    }

    void writerUpgradesVersion3FileInPlace() {
        std::string file = path("v3_writer.kiln");
        {
            // A version-3 Kiln knew neither the machine nor how a time was measured.
            auto writer = TraceWriter::open(file, version3History());
            QVERIFY(writer.ok());
            QVERIFY((*writer)->beginRun(runOn("/w/old.py", sampleMachineJson(2))).ok());
            (*writer)->kernel(sampleKernel(1, "0/0", 0));
            AutotuneChoiceEvent old = sampleChoice(1, "extern_mm (BLAS)", 40'000, 9);
            old.chosen = true;
            (*writer)->autotuneChoice(old);
            QVERIFY((*writer)->finishRun(RunStatus::Ok, 0).ok());
        }
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(3));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM pragma_table_info('runs') "
                                "WHERE name = 'machine'"),
                 int64_t(0));
        QCOMPARE(queryInt(file, "SELECT count(*) FROM pragma_table_info('autotune_choices')"),
                 int64_t(6));
        {
            auto writer = TraceWriter::open(file);
            QVERIFY2(writer.ok(), writer.ok() ? "" : writer.error().render().c_str());
            auto runId = (*writer)->beginRun(runOn("/w/new.py", sampleMachineJson(8)));
            QVERIFY(runId.ok());
            QCOMPARE(runId.value(), int64_t(2));
            (*writer)->kernel(sampleKernel(1, "0/0", 0));
            AutotuneChoiceEvent cached = sampleChoice(1, "extern_mm (BLAS)", 38'000, 9);
            cached.chosen = true;
            cached.fromCache = true;
            (*writer)->autotuneChoice(cached);
            QVERIFY((*writer)->finishRun(RunStatus::Ok, 0).ok());
        }
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(currentSchemaVersion()));
        QCOMPARE(queryTexts(file, "SELECT value FROM meta WHERE key = 'schema_version'"),
                 std::vector<std::string>{std::to_string(currentSchemaVersion())});
        // The old rows read NULL in the new columns.
        QCOMPARE(queryTexts(file, "SELECT coalesce(machine, 'NULL') FROM runs WHERE id = 1"),
                 std::vector<std::string>{"NULL"});
        QCOMPARE(queryTexts(file, "SELECT coalesce(runs, 'NULL') || coalesce(from_cache, 'NULL') "
                                  "FROM autotune_choices WHERE run_id = 1"),
                 std::vector<std::string>{"NULLNULL"});
        auto reader = openReader(file);
        QVERIFY(!reader->isUpgradedSnapshot());
        QCOMPARE(reader->schemaVersion(), currentSchemaVersion());
        auto runs = rows(reader->listRuns());
        QCOMPARE(runs.size(), size_t(2));
        QVERIFY(!runs[0].machine.recorded());
        QCOMPARE(runs[1].machine.threads, int64_t(8));
        auto oldChoice = rows(reader->autotuneChoices(1, 1));
        QCOMPARE(oldChoice.size(), size_t(1));
        QCOMPARE(oldChoice[0].timeNs, int64_t(40'000));
        QVERIFY(oldChoice[0].chosen);
        QCOMPARE(oldChoice[0].runs, 0);
        QVERIFY(!oldChoice[0].stoppedEarly.has_value());
        QVERIFY(!oldChoice[0].fromCache.has_value());
        auto newChoice = rows(reader->autotuneChoices(2, 1));
        QCOMPARE(newChoice.size(), size_t(1));
        QCOMPARE(newChoice[0].runs, 9);
        QCOMPARE(newChoice[0].fromCache, std::optional<bool>(true));
    }

    void readerUpgradesVersion3FileInMemory() {
        std::string file = path("v3_reader.kiln");
        {
            auto writer = TraceWriter::open(file, version3History());
            QVERIFY(writer.ok());
            QVERIFY((*writer)->beginRun(sampleRunInfo("/w/old.py")).ok());
            (*writer)->kernel(sampleKernel(1, "0/0", 0));
            (*writer)->autotuneChoice(sampleChoice(1, "extern_mm (BLAS)", 40'000, 9));
            QVERIFY((*writer)->finishRun(RunStatus::Ok, 0).ok());
        }
        std::string before = readFileBytes(file);
        auto reader = TraceReader::open(file);
        QVERIFY2(reader.ok(), reader.ok() ? "" : reader.error().render().c_str());
        QVERIFY((*reader)->isUpgradedSnapshot());
        QCOMPARE((*reader)->schemaVersion(), 3);
        QCOMPARE((*reader)->meta()->at("schema_version"), std::to_string(currentSchemaVersion()));
        auto runs = rows((*reader)->listRuns());
        QCOMPARE(runs.size(), size_t(1));
        QVERIFY(runs[0].machineJson.empty());
        QVERIFY(!runs[0].machine.recorded());
        auto choices = rows((*reader)->autotuneChoicesOfRun(1));
        QCOMPARE(choices.size(), size_t(1));
        QCOMPARE(choices[0].candidate, std::string("extern_mm (BLAS)"));
        QCOMPARE(choices[0].runs, 0);
        QVERIFY(!choices[0].fromCache.has_value());
        QVERIFY(readFileBytes(file) == before);
        QCOMPARE(queryInt(file, "PRAGMA user_version"), int64_t(3));
    }
};

QTEST_APPLESS_MAIN(TraceMeasurementTest)
#include "tst_trace_measurement.moc"
