// SPDX-License-Identifier: MIT
// TORCH_LOGS line formats (the glog-style default and TORCH_LOGS_FORMAT strings), the Logger
// and its macros, and the cost of a disabled check. Expected texts follow real PyTorch 2.15
// output (TORCH_LOGS=... python3 runs) with a fixed clock, pid and the UTC time zone.
#include "support/torch_logger.h"

#include <QtTest>
#include <chrono>
#include <ctime>
#include <string>
#include <vector>

using kiln::Artifact;
using kiln::LogLevel;
using kiln::LogRecord;

namespace {

/// 2026-11-30 05:39:59.303117456 UTC, pid 2064, 1.5 s after the run started.
kiln::LogStamp fixedStamp(int64_t = 0) {
    return {1796017199'303117456, 1'500'000'000, 2064, 139871234567};
}

LogRecord record(LogLevel level, std::string message, std::optional<Artifact> artifact = {},
                 std::string compileId = {}) {
    return {level,
            "torch._dynamo.guards",
            artifact,
            std::move(compileId),
            {"engine/capture/guards.cpp", 123, "recordRecompile"},
            std::move(message)};
}

std::string glog(const LogRecord& r) {
    return kiln::LogFormat().format(r, "torch._dynamo.guards", fixedStamp());
}

std::string python(const char* format, const LogRecord& r,
                   std::string_view name = "torch._dynamo.guards.__recompiles") {
    kiln::Expected<kiln::LogFormat> f = kiln::LogFormat::parse(format);
    if (!f.ok()) return "<" + f.error().kind + ": " + f.error().message + ">";
    return f->format(r, name, fixedStamp());
}

std::string formatError(const char* format) {
    kiln::Expected<kiln::LogFormat> f = kiln::LogFormat::parse(format);
    return f.ok() ? "<parsed>" : f.error().kind + ": " + f.error().message;
}

class CollectingSink final : public kiln::EventSink {
public:
    void output(kiln::OutputStream stream, std::string_view text) override {
        streams.push_back(stream);
        texts.emplace_back(text);
    }
    std::vector<kiln::OutputStream> streams;
    std::vector<std::string> texts;
};

const char* const kPrefix = "V1130 05:39:59.303117 2064 engine/capture/guards.cpp:123]";

} // namespace

class TorchLogFormatTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        qputenv("TZ", "UTC");
        tzset();
    }

    void glogPrefix() {
        QCOMPARE(glog(record(LogLevel::Debug, "Recompiling function f in /w/x.py:3",
                             Artifact::Recompiles, "0/1")),
                 std::string(kPrefix) +
                     " [0/1] [__recompiles] Recompiling function f in /w/x.py:3\n");
        QCOMPARE(glog(record(LogLevel::Info, "Step 1", std::nullopt, "0/0")),
                 "I1130 05:39:59.303117 2064 engine/capture/guards.cpp:123] [0/0] Step 1\n");
        QCOMPARE(glog(record(LogLevel::Debug, "G", Artifact::GraphCode)),
                 std::string(kPrefix) + " [__graph_code] G\n");
        QCOMPARE(glog(record(LogLevel::Warning, "w")),
                 "W1130 05:39:59.303117 2064 engine/capture/guards.cpp:123] w\n");
        QCOMPARE(glog(record(LogLevel::Error, "e")).substr(0, 6), std::string("E1130 "));
        QCOMPARE(glog(record(LogLevel::Critical, "c")).substr(0, 6), std::string("C1130 "));
    }

    void glogTimeFields() {
        LogRecord r = record(LogLevel::Info, "x");
        kiln::LogStamp stamp = fixedStamp();
        stamp.wallNs = 1799118245'000007000; // 2027-01-05 03:04:05.000007 UTC
        stamp.pid = 7;
        QCOMPARE(kiln::LogFormat().format(r, "torch._dynamo", stamp),
                 "I0105 03:04:05.000007 7 engine/capture/guards.cpp:123] x\n");
    }

    void multiLineRepeatsThePrefix() {
        std::string prefix = std::string(kPrefix) + " [1/2] [__recompiles] ";
        QCOMPARE(glog(record(LogLevel::Debug,
                             "Recompiling function f in /w/x.py:3\n"
                             "    triggered by the following guard failure(s):\n"
                             "    - 1/0: tensor 'x' size mismatch at index 0. expected 8, "
                             "actual 16",
                             Artifact::Recompiles, "1/2")),
                 prefix + "Recompiling function f in /w/x.py:3\n" + prefix +
                     "    triggered by the following guard failure(s):\n" + prefix +
                     "    - 1/0: tensor 'x' size mismatch at index 0. expected 8, actual 16\n");
        // Python's str.split: a trailing newline is one more line, with the prefix and a space.
        QCOMPARE(glog(record(LogLevel::Debug, "a\n", Artifact::Recompiles)),
                 std::string(kPrefix) + " [__recompiles] a\n" + kPrefix + " [__recompiles] \n");
        QCOMPARE(glog(record(LogLevel::Debug, "", Artifact::Guards)),
                 std::string(kPrefix) + " [__guards] \n");
    }

    void pythonFormats() {
        LogRecord r =
            record(LogLevel::Debug, "recompiles debug\nsecond line\n", Artifact::Recompiles, "0/1");
        // short and basic are logging.BASIC_FORMAT in PyTorch; no per-line prefix.
        QCOMPARE(python("short", r),
                 "DEBUG:torch._dynamo.guards.__recompiles:recompiles debug\nsecond line\n\n");
        QCOMPARE(python("basic", r), python("short", r));
        QCOMPARE(python("%(levelname)s: %(message)s", record(LogLevel::Info, "dynamo info")),
                 "INFO: dynamo info\n");
        QCOMPARE(python("%(asctime)s|%(name)s|%(filename)s|%(lineno)d|%(pathname)s|%(process)d|"
                        "%(levelno)s|%(module)s|%(msecs)d|%(funcName)s",
                        record(LogLevel::Warning, "w"), "torch._dynamo.convert_frame"),
                 "2026-11-30 05:39:59,303|torch._dynamo.convert_frame|guards.cpp|123|"
                 "engine/capture/guards.cpp|2064|30|guards|303|recordRecompile\n");
        QCOMPARE(python("%(levelname)-8s|%(lineno)5d|%(message).4s|%%",
                        record(LogLevel::Critical, "dynamo critical")),
                 "CRITICAL|  123|dyna|%\n");
        QCOMPARE(python("%(message)r", record(LogLevel::Info, "it's\n")), "\"it's\\n\"\n");
        QCOMPARE(python("%(message)r", record(LogLevel::Info, "a'b\"c")), "'a\\'b\"c'\n");
        QCOMPARE(python("%(message)a|%(message)5.2s|", record(LogLevel::Info, "héllo")),
                 "'h\\xe9llo'|   hé|\n");
        QCOMPARE(python("%(created)f %(msecs)s %(relativeCreated)d %(relativeCreated)s",
                        record(LogLevel::Info, "m")),
                 "1796017199.303118 303.0 1500 1500.0\n");
        QCOMPARE(python("%(lineno)#x %(lineno)#o %(lineno)+06d %(lineno)-5d| %(levelno).3d",
                        record(LogLevel::Info, "m")),
                 "0x7b 0o173 +00123 123  | 020\n");
        QCOMPARE(python("%(threadName)s %(processName)s %(thread)d", record(LogLevel::Info, "m")),
                 "MainThread MainProcess 139871234567\n");
        QCOMPARE(python("%(lineno)ld %(lineno).2e %(msecs)08.3f", record(LogLevel::Info, "m")),
                 "123 1.23e+02 0303.000\n");
    }

    void pythonFormatErrors() {
        QCOMPARE(formatError("hello"),
                 std::string("ValueError: Invalid format 'hello' for '%' style"));
        QCOMPARE(formatError("{message}"),
                 std::string("ValueError: Invalid format '{message}' for '%' style"));
        QCOMPARE(formatError("100%%"),
                 std::string("ValueError: Invalid format '100%%' for '%' style"));
        QCOMPARE(formatError("%(message)"),
                 std::string("ValueError: Invalid format '%(message)' for '%' style"));
        QCOMPARE(formatError("%(bogus)s %(message)s"),
                 std::string("ValueError: Formatting field not found in record: 'bogus'"));
        QCOMPARE(formatError("%(message)d"),
                 std::string("TypeError: %d format: a real number is required, not str"));
        QCOMPARE(formatError("%(created)x"),
                 std::string("TypeError: %x format: an integer is required, not float"));
        QCOMPARE(formatError("%(name)f"), std::string("TypeError: must be real number, not str"));
        QVERIFY(kiln::LogFormat().isGlog());
        QVERIFY(!kiln::LogFormat::parse("short")->isGlog());
    }

    void logHereIsRelativeToTheSourceTree() {
        kiln::LogLocation here = KILN_LOG_HERE;
        QCOMPARE(here.file, std::string_view("tests/unit/support/tst_torch_log_format.cpp"));
        QCOMPARE(here.line, __LINE__ - 2);
        QCOMPARE(here.function, std::string_view("logHereIsRelativeToTheSourceTree"));
        static_assert(kiln::sourceRelativePath("/elsewhere/x.cpp") == "/elsewhere/x.cpp");
    }

    void loggerWritesEnabledRecordsAsLog() {
        kiln::TorchLogs logs = kiln::TorchLogs::parse("recompiles").value();
        CollectingSink sink;
        kiln::Logger logger(sink, logs, fixedStamp);
        QVERIFY(logger.log(record(LogLevel::Debug, "r", Artifact::Recompiles, "0/1")));
        QVERIFY(!logger.log(record(LogLevel::Debug, "g", Artifact::Guards, "0/1")));
        QVERIFY(!logger.log(record(LogLevel::Info, "i")));
        QVERIFY(logger.log(record(LogLevel::Warning, "w")));
        QCOMPARE(sink.texts.size(), size_t(2));
        QCOMPARE(sink.streams[0], kiln::OutputStream::Log);
        QCOMPARE(sink.texts[0], std::string(kPrefix) + " [0/1] [__recompiles] r\n");
        QCOMPARE(sink.texts[1], "W1130 05:39:59.303117 2064 engine/capture/guards.cpp:123] w\n");
    }

    void artifactRecordsDefaultToTheirLogger() {
        kiln::TorchLogs logs = kiln::TorchLogs::parse("+inductor").value();
        logs.setFormat(kiln::LogFormat::parse("%(name)s %(message)s").value());
        CollectingSink sink;
        kiln::Logger logger(sink, logs, fixedStamp);
        LogRecord r = record(LogLevel::Debug, "graph", Artifact::PostGradGraphs);
        r.logger = {};
        QVERIFY(logger.log(r));
        QCOMPARE(sink.texts.at(0),
                 std::string("torch._inductor.compile_fx.__post_grad_graphs graph\n"));
    }

    void macrosEvaluateTheMessageOnlyWhenShown() {
        kiln::TorchLogs logs = kiln::TorchLogs::parse("dynamo").value();
        CollectingSink sink;
        kiln::Logger logger(sink, logs, fixedStamp);
        int built = 0;
        auto message = [&] {
            ++built;
            return std::string("Step 1: torchdynamo start tracing f");
        };
        KILN_TORCH_ARTIFACT(logger, Artifact::Recompiles, "0/0", message());
        KILN_TORCH_LOG(logger, LogLevel::Debug, "torch._dynamo.convert_frame", "0/0", message());
        QCOMPARE(built, 0);
        QVERIFY(sink.texts.empty());
        const int line = __LINE__ + 1;
        KILN_TORCH_LOG(logger, LogLevel::Info, "torch._dynamo.convert_frame", "0/0", message());
        QCOMPARE(built, 1);
        QCOMPARE(sink.texts.at(0), "I1130 05:39:59.303117 2064 tests/unit/support/"
                                   "tst_torch_log_format.cpp:" +
                                       std::to_string(line) +
                                       "] [0/0] Step 1: torchdynamo start tracing f\n");
        logs.enableArtifact(Artifact::GraphBreaks);
        KILN_TORCH_ARTIFACT(logger, Artifact::GraphBreaks, "", "Graph break in user code");
        QVERIFY(sink.texts.at(1).ends_with("] [__graph_breaks] Graph break in user code\n"));
    }

    void disabledCheckCost() {
        // Reported, not asserted: the capture code calls these on hot paths.
        kiln::TorchLogs logs;
        CollectingSink sink;
        kiln::Logger logger(sink, logs, fixedStamp);
        constexpr int kChecks = 20'000'000;
        int shown = 0;
        auto time = [&](const char* what, auto&& check) {
            auto start = std::chrono::steady_clock::now();
            for (int i = 0; i < kChecks; ++i)
                shown += check(i);
            double ns =
                std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
                    .count() /
                kChecks;
            qInfo("%s: %.2f ns per check", what, ns);
        };
        time("artifactEnabled(Artifact)",
             [&](int) { return logs.artifactEnabled(Artifact::Recompiles) ? 1 : 0; });
        time("enabled(LogGroup, LogLevel)",
             [&](int) { return logs.enabled(kiln::LogGroup::Dynamo, LogLevel::Debug) ? 1 : 0; });
        time("KILN_TORCH_ARTIFACT, disabled", [&](int i) {
            KILN_TORCH_ARTIFACT(logger, Artifact::Recompiles, "", std::to_string(i));
            return 0;
        });
        time("artifactEnabled(string_view)",
             [&](int) { return logs.artifactEnabled("recompiles") ? 1 : 0; });
        QCOMPARE(shown, 0);
        QVERIFY(sink.texts.empty());
    }
};

QTEST_APPLESS_MAIN(TorchLogFormatTest)
#include "tst_torch_log_format.moc"
