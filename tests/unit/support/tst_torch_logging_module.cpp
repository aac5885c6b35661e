// SPDX-License-Identifier: MIT
// torch._logging.set_logs and the TORCH_LOGS environment as scripts see them: runs real
// workloads through the engine's api and checks the process's TORCH_LOGS state afterwards,
// the errors PyTorch raises, and the warning lines.
#include "script_runner.h"
#include "support/torch_logs.h"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using kiln::Artifact;
using kiln::LogGroup;
using kiln::LogLevel;

namespace {

/// Sets an environment variable for one scope.
class EnvScope {
public:
    EnvScope(const char* name, const char* value)
        : m_name(name) {
        qputenv(name, value);
    }
    ~EnvScope() { qunsetenv(m_name); }
    EnvScope(const EnvScope&) = delete;
    EnvScope& operator=(const EnvScope&) = delete;

private:
    const char* m_name;
};

} // namespace

class TorchLoggingModuleTest : public QObject {
    Q_OBJECT

private:
    kiln::testing::ScriptRun run(const std::string& source) {
        std::string path = m_dir.filePath("script.py").toStdString();
        std::ofstream(path, std::ios::trunc) << source;
        return kiln::testing::runScript(path);
    }

    QTemporaryDir m_dir;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        for (const char* name : {"TORCH_LOGS", "TORCH_LOGS_FORMAT", "TORCH_LOGS_OUT"})
            qunsetenv(name);
    }

    void setLogsSetsLevelsAndArtifacts() {
        auto r = run("import logging\nimport torch\n"
                     "torch._logging.set_logs(dynamo=logging.DEBUG, recompiles=True, "
                     "aot=logging.ERROR)\nprint(logging.INFO, logging.WARN, logging.CRITICAL)\n");
        QCOMPARE(r.stderrText, std::string());
        QCOMPARE(r.stdoutText, std::string("20 30 50\n"));
        kiln::TorchLogs& logs = kiln::torchLogs();
        QCOMPARE(logs.requestedLevel(LogGroup::Dynamo), LogLevel::Debug);
        QCOMPARE(logs.requestedLevel(LogGroup::Aot), LogLevel::Error);
        QVERIFY(logs.artifactRequested(Artifact::Recompiles));
        QVERIFY(logs.artifactEnabled(Artifact::Guards)); // through dynamo at DEBUG
    }

    void setLogsReplacesTheSettings() {
        auto r = run("import torch\nimport torch._logging\n"
                     "torch._logging.set_logs(graph_breaks=True, inductor=10)\n"
                     "torch._logging.set_logs(recompiles=True, all=20.0, dynamic=False)\n");
        QCOMPARE(r.stderrText, std::string());
        kiln::TorchLogs& logs = kiln::torchLogs();
        QVERIFY(!logs.artifactRequested(Artifact::GraphBreaks));
        QVERIFY(logs.artifactRequested(Artifact::Recompiles));
        QCOMPARE(logs.requestedLevel(LogGroup::Inductor), LogLevel::NotSet);
        QCOMPARE(logs.requestedLevel(LogGroup::Torch), LogLevel::Info);
        QCOMPARE(logs.effectiveLevel(LogGroup::Dynamic), LogLevel::Info);
    }

    void setLogsModulesDict() {
        auto r = run("import torch\nfrom torch._logging import set_logs\n"
                     "set_logs(modules={'torch._dynamo': 10, 'output_code': True, 'onnx': 40})\n");
        QCOMPARE(r.stderrText, std::string());
        kiln::TorchLogs& logs = kiln::torchLogs();
        QCOMPARE(logs.requestedLevel(LogGroup::Dynamo), LogLevel::Debug);
        QCOMPARE(logs.requestedLevel(LogGroup::Dynamic), LogLevel::NotSet);
        QCOMPARE(logs.requestedLevel(LogGroup::Onnx), LogLevel::Error);
        QVERIFY(logs.artifactEnabled(Artifact::OutputCode));
    }

    void setLogsErrorsLeaveTheSettings() {
        run("import torch\ntorch._logging.set_logs(guards=True)\n");
        struct Case {
            const char* call;
            const char* error;
        } cases[] = {
            {"graph_breaks=1", "ValueError: Expected bool to enable artifact graph_breaks, "
                               "received 1"},
            {"dynamo=15", "ValueError: Unrecognized log level for log dynamo: 15, valid level "
                          "values are: 50,40,30,20,10,0"},
            {"all=True", "ValueError: Unrecognized log level for log torch: True, valid level "
                         "values are: 50,40,30,20,10,0"},
            {"inductor='DEBUG'", "ValueError: Unrecognized log level for log inductor: DEBUG, "
                                 "valid level values are: 50,40,30,20,10,0"},
            {"modules={'numpy': 10}",
             "ValueError: Unrecognized log or artifact name passed to set_logs: numpy"},
            {"modules=[1]", "AttributeError: 'list' object has no attribute 'items'"},
            {"bogus=True", "TypeError: set_logs() got an unexpected keyword argument 'bogus'"},
            {"10", "TypeError: set_logs() takes 0 positional arguments but 1 was given"},
        };
        for (const Case& c : cases) {
            auto r = run(std::string("import torch\ntorch._logging.set_logs(guards=True)\n"
                                     "torch._logging.set_logs(") +
                         c.call + ")\n");
            QVERIFY2(r.stderrText.ends_with(std::string(c.error) + "\n"), r.stderrText.c_str());
            QVERIFY(kiln::torchLogs().artifactRequested(Artifact::Guards));
        }
    }

    void eachRunStartsFromItsEnvironment() {
        run("import torch\ntorch._logging.set_logs(dynamo=10, guards=True)\n");
        QVERIFY(kiln::torchLogs().artifactRequested(Artifact::Guards));
        auto r = run("import logging\nprint(logging.DEBUG)\n");
        QCOMPARE(r.stdoutText, std::string("10\n"));
        QVERIFY(!kiln::torchLogs().artifactRequested(Artifact::Guards));
        QCOMPARE(kiln::torchLogs().requestedLevel(LogGroup::Dynamo), LogLevel::NotSet);
        EnvScope logs("TORCH_LOGS", "+inductor,graph_breaks");
        run("x = 1\n");
        QCOMPARE(kiln::torchLogs().requestedLevel(LogGroup::Inductor), LogLevel::Debug);
        QVERIFY(kiln::torchLogs().artifactRequested(Artifact::GraphBreaks));
    }

    void environmentWinsOverSetLogs() {
        EnvScope logs("TORCH_LOGS", "recompiles");
        auto r = run("import torch\ntorch._logging.set_logs(dynamo=10)\n");
        QCOMPARE(r.result.exitCode, 0);
        QVERIFY(kiln::torchLogs().artifactRequested(Artifact::Recompiles));
        QCOMPARE(kiln::torchLogs().requestedLevel(LogGroup::Dynamo), LogLevel::NotSet);
        // The WARNING line, glog style, with Kiln's own source position.
        QVERIFY2(r.stderrText.starts_with("W"), r.stderrText.c_str());
        QVERIFY(r.stderrText.find(" engine/torchapi/logging_module.cpp:") != std::string::npos);
        QVERIFY(r.stderrText.ends_with("] Using TORCH_LOGS environment variable for log "
                                       "settings, ignoring call to set_logs\n"));
    }

    void badEnvironmentFailsImportTorch() {
        EnvScope logs("TORCH_LOGS", "dynamo,bogus");
        auto r = run("import logging\nprint('before')\nimport torch\nprint('after')\n");
        QCOMPARE(r.result.exitCode, 1);
        QCOMPARE(r.stdoutText, std::string("before\n"));
        QCOMPARE(r.result.errorType, std::string("ValueError"));
        QVERIFY2(r.stderrText.find("ValueError: \nInvalid log settings: dynamo,bogus, must be a "
                                   "comma separated list of fully\n") != std::string::npos,
                 r.stderrText.c_str());
        EnvScope help("TORCH_LOGS", "help");
        r = run("import torch\n");
        QVERIFY(r.stderrText.find("ValueError: \nTORCH_LOGS Info\n\nExamples:\n") !=
                std::string::npos);
    }

    void badFormatFailsImportTorch() {
        EnvScope format("TORCH_LOGS_FORMAT", "%(levelname)s %(bogus)s");
        auto r = run("import torch\n");
        QVERIFY(
            r.stderrText.ends_with("ValueError: Formatting field not found in record: 'bogus'\n"));
    }

    void logsOutIsIgnoredWithAWarning() {
        std::string out = m_dir.filePath("torch_logs.txt").toStdString();
        EnvScope file("TORCH_LOGS_OUT", out.c_str());
        EnvScope format("TORCH_LOGS_FORMAT", "short");
        auto r = run("import torch\nimport torch._logging\nprint('ok')\n");
        QCOMPARE(r.stderrText, "WARNING:torch._logging._internal:TORCH_LOGS_OUT=" + out +
                                   " is ignored: Kiln scripts write no files; the log lines are "
                                   "in the trace\n");
        QCOMPARE(r.stdoutText, std::string("ok\n"));
        QVERIFY(!QFile::exists(QString::fromStdString(out)));
    }
};

QTEST_GUILESS_MAIN(TorchLoggingModuleTest)
#include "tst_torch_logging_module.moc"
