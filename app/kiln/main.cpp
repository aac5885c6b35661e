// SPDX-License-Identifier: MIT
// kiln: the command-line runner. `kiln run` executes a workload and records it in a trace
// database; it is also the child process Kiln Studio starts.
#include "api/run.h"
#include "bench_command.h"
#include "capture_commands.h"
#include "cli.h"
#include "compiler_commands.h"
#include "import_command.h"
#include "support/options.h"
#include "trace_commands.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <new>

namespace {

std::string fileName(const std::string& path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

void printSummary(const kiln::api::RunResult& r, const std::string& script) {
    using kiln::api::RunStatus;
    // A script that failed on its own and whose trace also lost rows: say both.
    if (!r.traceProblem.empty() && r.errorType != "TraceError")
        std::fprintf(stderr, "kiln: error: %s\n", r.traceProblem.c_str());
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

/// --mode, --backend, --options, --dynamic and --fullgraph; false (after a message) when bad.
bool readCompileOverrides(const kiln::app::CommandLine& cl, kiln::CompileOverrides& o) {
    auto flag = [&](const char* name) -> const std::string* {
        auto it = cl.flags.find(name);
        return it == cl.flags.end() ? nullptr : &it->second;
    };
    if (const std::string* v = flag("--mode")) o.mode = *v;
    if (const std::string* v = flag("--backend")) o.backend = *v;
    if (cl.flags.count("--fullgraph")) o.fullgraph = true;
    if (const std::string* v = flag("--dynamic")) {
        if (*v == "true")
            o.dynamic = true;
        else if (*v == "false")
            o.dynamic = false;
        else if (*v == "auto")
            o.dynamicAuto = true;
        else {
            std::fprintf(stderr, "kiln: error: --dynamic takes true, false or auto, got '%s'\n",
                         v->c_str());
            return false;
        }
    }
    if (const std::string* v = flag("--options")) {
        size_t start = 0;
        while (start <= v->size()) {
            size_t comma = v->find(',', start);
            std::string item =
                v->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            size_t eq = item.find('=');
            if (eq == std::string::npos || eq == 0) {
                std::fprintf(stderr, "kiln: error: --options takes KEY=VALUE pairs, got '%s'\n",
                             item.c_str());
                return false;
            }
            o.options.emplace_back(item.substr(0, eq), item.substr(eq + 1));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    }
    if (o.mode && !o.options.empty()) {
        std::fprintf(stderr, "kiln: error: Either mode or options can be specified, but both "
                             "can't be specified at the same time.\n");
        return false;
    }
    // As torch.compile(options=) will check them, before the script runs.
    if (kiln::Status checked = kiln::checkCommandLineOptions(o.options); !checked) {
        std::fprintf(stderr, "kiln: error: --options: %s\n", checked.error().message.c_str());
        return false;
    }
    return true;
}

/// --timeout's value: a positive, finite number of seconds up to kMaxTimeoutSeconds (so "inf",
/// "nan" and "1e300", which once ended a run at once or never, are refused).
bool parseTimeout(const std::string& text, double& seconds) {
    const char* first = text.data();
    const char* last = first + text.size();
    auto [end, ec] = std::from_chars(first, last, seconds);
    if (ec == std::errc() && end == last && std::isfinite(seconds) && seconds > 0 &&
        seconds <= kiln::api::kMaxTimeoutSeconds)
        return true;
    std::fprintf(stderr,
                 "kiln: error: --timeout needs a positive, finite number of seconds up to "
                 "%.0f (30 days), got '%s'\n",
                 kiln::api::kMaxTimeoutSeconds, text.c_str());
    return false;
}

/// --measure's and --warmup's value: a whole number of calls from 0 to kMaxMeasuredCalls.
bool parseCallCount(const std::string& flag, const std::string& text, int& calls) {
    const char* last = text.data() + text.size();
    auto [end, ec] = std::from_chars(text.data(), last, calls);
    if (ec == std::errc() && end == last && calls >= 0 && calls <= kiln::api::kMaxMeasuredCalls)
        return true;
    std::fprintf(stderr, "kiln: error: %s needs a number of calls from 0 to %d, got '%s'\n",
                 flag.c_str(), kiln::api::kMaxMeasuredCalls, text.c_str());
    return false;
}

/// --measure, --warmup and --measure-budget into the run's timing plan.
bool readMeasurePlan(const kiln::app::CommandLine& cl, kiln::api::CallTimingPlan& plan) {
    if (auto it = cl.flags.find("--measure"); it != cl.flags.end())
        if (!parseCallCount("--measure", it->second, plan.calls)) return false;
    if (auto it = cl.flags.find("--warmup"); it != cl.flags.end())
        if (!parseCallCount("--warmup", it->second, plan.warmup)) return false;
    if (auto it = cl.flags.find("--measure-budget"); it != cl.flags.end()) {
        const std::string& text = it->second;
        const char* last = text.data() + text.size();
        auto [end, ec] = std::from_chars(text.data(), last, plan.budgetSeconds);
        if (ec != std::errc() || end != last || !std::isfinite(plan.budgetSeconds) ||
            plan.budgetSeconds < 0 || plan.budgetSeconds > kiln::api::kMaxTimeoutSeconds) {
            std::fprintf(stderr,
                         "kiln: error: --measure-budget needs a finite number of seconds from 0 "
                         "(no limit) to %.0f, got '%s'\n",
                         kiln::api::kMaxTimeoutSeconds, text.c_str());
            return false;
        }
    }
    return true;
}

int runCommand(const kiln::app::CommandLine& cl) {
    kiln::api::RunConfig config;
    config.scriptPath = cl.positional[0];
    config.argv = cl.argv;
    if (auto it = cl.flags.find("--db"); it != cl.flags.end()) config.dbPath = it->second;
    if (auto it = cl.flags.find("--device"); it != cl.flags.end()) config.device = it->second;
    if (auto it = cl.flags.find("--debug-dir"); it != cl.flags.end()) config.debugDir = it->second;
    if (auto it = cl.flags.find("--timeout"); it != cl.flags.end())
        if (!parseTimeout(it->second, config.timeoutSeconds)) return 2;
    if (!readCompileOverrides(cl, config.compile)) return 2;
    if (!readMeasurePlan(cl, config.measure)) return 2;
    // SIGINT interrupts the script, SIGTERM and the like stop it with the trace complete.
    kiln::api::installStopSignalHandlers();
    bool quiet = cl.flags.count("--quiet") > 0;
    auto result = kiln::api::runWorkload(config);
    if (!result.ok()) {
        std::fprintf(stderr, "kiln: error: %s\n", result.error().render().c_str());
        return 2;
    }
    if (!quiet) printSummary(result.value(), config.scriptPath);
    return result.value().exitCode;
}

int dispatch(int argc, char** argv) {
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
    if (cl->command == "bench") {
        kiln::app::BenchRequest request;
        request.workloadFiles = cl->positional;
        if (auto it = cl->flags.find("--modes"); it != cl->flags.end()) request.modes = it->second;
        if (auto it = cl->flags.find("--calls"); it != cl->flags.end()) request.calls = it->second;
        if (auto it = cl->flags.find("--json"); it != cl->flags.end()) request.json = it->second;
        request.quick = cl->flags.count("--quick") > 0;
        if (auto it = cl->flags.find("--timeout"); it != cl->flags.end()) {
            double seconds = 0;
            if (!parseTimeout(it->second, seconds)) return 2;
            request.timeoutSeconds = seconds;
        }
        return kiln::app::runBench(request);
    }
    if (cl->command == "import") {
        kiln::app::ImportRequest request;
        request.files = cl->positional;
        if (auto it = cl->flags.find("--into"); it != cl->flags.end()) request.into = it->second;
        if (auto it = cl->flags.find("--run"); it != cl->flags.end()) request.run = it->second;
        // Like `kiln run`: next to the (first) file, "x.log" -> "x.kiln".
        std::string trace = cl->positional[0];
        if (size_t dot = trace.rfind('.');
            dot != std::string::npos && trace.find('/', dot) == std::string::npos)
            trace.resize(dot);
        trace += ".kiln";
        for (const char* flag : {"-o", "--output"})
            if (auto it = cl->flags.find(flag); it != cl->flags.end()) {
                trace = it->second;
                request.outputGiven = true;
            }
        request.trace = trace;
        return kiln::app::importFiles(request);
    }
    if (cl->command == "runs") return kiln::app::listRuns(cl->positional[0]);
    if (auto it = cl->flags.find("--run"); it != cl->flags.end() && it->second.empty()) {
        std::fputs("kiln: error: --run takes a run number (1, 2, ...: the run column of `kiln "
                   "runs`), got ''\n",
                   stderr);
        return 2;
    }
    std::string run = cl->flags.count("--run") ? cl->flags.at("--run") : "";
    if (cl->command == "compiles") return kiln::app::listCompiles(cl->positional[0], run);
    if (cl->command == "breaks") return kiln::app::listBreaks(cl->positional[0], run);
    if (cl->command == "graph")
        return kiln::app::showGraph(cl->positional[0], cl->positional[1], run);
    if (cl->command == "kernels")
        return kiln::app::listKernels(cl->positional[0], run,
                                      cl->flags.count("--graph") ? cl->flags.at("--graph") : "");
    if (cl->command == "export-diagram") {
        kiln::app::ExportDiagramRequest request;
        request.tracePath = cl->positional[0];
        auto flag = [&](const char* name) {
            auto it = cl->flags.find(name);
            return it == cl->flags.end() ? std::string() : it->second;
        };
        request.graphId = flag("--graph");
        request.preFusion = cl->flags.count("--pre-fusion") > 0;
        request.format = flag("--format");
        request.output = cl->flags.count("-o") ? flag("-o") : flag("--output");
        return kiln::app::exportDiagram(request);
    }
    if (cl->command == "output")
        return kiln::app::printOutput(cl->positional[0],
                                      cl->flags.count("--run") ? cl->flags.at("--run") : "");
    return runCommand(*cl);
}

} // namespace

int main(int argc, char** argv) {
    kiln::api::installCrashHandlers();
    try {
        return dispatch(argc, argv);
    } catch (const std::bad_alloc&) {
        std::fputs("kiln: error: out of memory\n", stderr);
        return 2;
    }
}
