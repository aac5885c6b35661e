// SPDX-License-Identifier: MIT
#include "script_runner.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

namespace kiln::testing {

namespace {

class CaptureSink final : public EventSink {
public:
    void output(OutputStream stream, std::string_view text) override {
        (stream == OutputStream::Stdout ? out : err).append(text);
    }
    std::string out, err;
};

} // namespace

ScriptRun runScript(const std::string& scriptPath, const std::string& tracePath,
                    double timeoutSeconds) {
    QTemporaryDir dir;
    api::RunConfig config;
    config.scriptPath = scriptPath;
    config.dbPath = tracePath.empty() ? dir.filePath("run.kiln").toStdString() : tracePath;
    config.echoOutput = false;
    config.timeoutSeconds = timeoutSeconds;
    CaptureSink capture;
    ScriptRun run;
    auto result = api::runWorkload(config, &capture);
    if (!result.ok()) {
        run.setupError = result.error().render();
        return run;
    }
    run.result = result.value();
    run.stdoutText = std::move(capture.out);
    run.stderrText = std::move(capture.err);
    return run;
}

std::string readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().toStdString();
}

QString sourceDir() {
    return qEnvironmentVariable("KILN_SOURCE_DIR", QStringLiteral(KILN_DEFAULT_SOURCE_DIR));
}

QString binaryDir() {
    return qEnvironmentVariable("KILN_BINARY_DIR", QStringLiteral(KILN_DEFAULT_BINARY_DIR));
}

} // namespace kiln::testing
