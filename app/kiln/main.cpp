// SPDX-License-Identifier: MIT
// kiln: the command-line runner. `kiln run` executes a workload and records it in a trace
// database; it is also the child process Kiln Studio starts.
#include "api/run.h"
#include "cli.h"
#include "trace_commands.h"

#include <cstdio>
#include <cstdlib>

namespace {

std::string fileName(const std::string& path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

void printSummary(const kiln::api::RunResult& r, const std::string& script) {
    using kiln::api::RunStatus;
    if (r.status == RunStatus::Ok) {
        std::fprintf(
            stderr,
            "kiln: %s finished in %.2f s; %lld line%s of output recorded as run %lld in %s\n",
            fileName(script).c_str(), r.wallSeconds, static_cast<long long>(r.outputLines),
            r.outputLines == 1 ? "" : "s", static_cast<long long>(r.runId), r.dbPath.c_str());
        return;
    }
    std::string where = r.errorLocation.empty() ? "" : r.errorLocation + ": ";
    const char* what = r.status == RunStatus::Cancelled ? "cancelled" : "error";
    std::string message =
        r.errorMessage.empty() ? r.errorType : r.errorType + ": " + r.errorMessage;
    std::fprintf(stderr, "kiln: %s: %s%s\nkiln: recorded as run %lld in %s\n", what, where.c_str(),
                 message.c_str(), static_cast<long long>(r.runId), r.dbPath.c_str());
}

int runCommand(const kiln::app::CommandLine& cl) {
    kiln::api::RunConfig config;
    config.scriptPath = cl.positional[0];
    config.argv = cl.argv;
    if (auto it = cl.flags.find("--db"); it != cl.flags.end()) config.dbPath = it->second;
    if (auto it = cl.flags.find("--device"); it != cl.flags.end()) config.device = it->second;
    if (auto it = cl.flags.find("--timeout"); it != cl.flags.end()) {
        char* end = nullptr;
        config.timeoutSeconds = std::strtod(it->second.c_str(), &end);
        if (*end != '\0' || config.timeoutSeconds <= 0) {
            std::fprintf(stderr,
                         "kiln: error: --timeout needs a positive number of seconds, got '%s'\n",
                         it->second.c_str());
            return 2;
        }
    }
    bool quiet = cl.flags.count("--quiet") > 0;
    auto result = kiln::api::runWorkload(config);
    if (!result.ok()) {
        std::fprintf(stderr, "kiln: error: %s\n", result.error().render().c_str());
        return 2;
    }
    if (!quiet) printSummary(result.value(), config.scriptPath);
    return result.value().exitCode;
}

} // namespace

int main(int argc, char** argv) {
    kiln::api::installCrashHandlers();
    std::string error;
    auto cl = kiln::app::parseCommandLine(argc, argv, error);
    if (!cl) {
        std::fprintf(stderr, "kiln: error: %s\n\n%s", error.c_str(),
                     kiln::app::usageText().c_str());
        return 2;
    }
    if (cl->command == "help") {
        std::fputs(kiln::app::usageText().c_str(), stdout);
        return 0;
    }
    if (cl->command == "version") {
        std::printf("kiln %s\n", kiln::api::engineVersion().c_str());
        return 0;
    }
    if (cl->command == "runs") return kiln::app::listRuns(cl->positional[0]);
    if (cl->command == "output")
        return kiln::app::printOutput(cl->positional[0],
                                      cl->flags.count("--run") ? cl->flags.at("--run") : "");
    return runCommand(*cl);
}
