// SPDX-License-Identifier: MIT
#include "cli.h"

#include <set>

namespace kiln::app {

namespace {

struct CommandSpec {
    std::set<std::string> valueFlags;
    std::set<std::string> boolFlags;
    size_t positionals;
    bool variadic = false; ///< `positionals` or more
};

const std::map<std::string, CommandSpec>& commands() {
    static const std::map<std::string, CommandSpec> specs = {
        {"run",
         {{"--db", "--device", "--timeout", "--mode", "--backend", "--options", "--dynamic",
           "--debug-dir", "--measure", "--warmup", "--measure-budget"},
          {"--quiet", "--fullgraph"},
          1}},
        {"import", {{"-o", "--output", "--into", "--run"}, {}, 1, true}},
        {"runs", {{}, {}, 1}},
        {"output", {{"--run"}, {}, 1}},
        {"compiles", {{"--run"}, {}, 1}},
        {"breaks", {{"--run"}, {}, 1}},
        {"graph", {{"--run"}, {}, 2}},
        {"kernels", {{"--run", "--graph"}, {}, 1}},
        {"export-diagram", {{"--graph", "--format", "-o", "--output"}, {"--pre-fusion"}, 1}},
        {"bench", {{"--modes", "--calls", "--json", "--timeout"}, {"--quick"}, 0, true}},
        {"help", {{}, {}, 0}},
        {"version", {{}, {}, 0}},
    };
    return specs;
}

} // namespace

std::string usageText() {
    return "usage: kiln <command> [options]\n"
           "\n"
           "commands:\n"
           "  run SCRIPT [--db PATH] [--device cpu|cuda] [--timeout SECONDS] [--quiet]\n"
           "        run a workload script and record it in a trace database\n"
           "        (default: next to the script, SCRIPT with .kiln; runs are appended)\n"
           "        (SCRIPT: a regular file of at most 64 MiB; --timeout: up to 2592000 s,\n"
           "        reading the script included)\n"
           "        --debug-dir DIR       where torch.compile's debug traces may be written\n"
           "                              (default ./torch_compile_debug); the script's\n"
           "                              debug_dir_root and trace.debug_dir must lie inside\n"
           "        --measure N           after the script, call each torch.compile'd function\n"
           "                              it called again with its last arguments: --warmup\n"
           "                              untimed calls (default 3), then N timed calls, within\n"
           "                              --measure-budget SECONDS of timed calls per function\n"
           "                              (default 10; 0: no limit; at least 3 calls are made)\n"
           "      compile overrides, applied to every torch.compile call of the script:\n"
           "        --mode MODE           default, reduce-overhead, max-autotune-no-cudagraphs\n"
           "                              or max-autotune\n"
           "        --backend NAME        inductor, eager, aot_eager or cudagraphs (a custom\n"
           "                              backend is passed to torch.compile in the script)\n"
           "        --options K=V[,K=V]   inductor options merged over the script's\n"
           "        --dynamic true|false|auto\n"
           "        --fullgraph\n"
           "  import FILE... [-o TRACE]\n"
           "  import PROFILE.json... --into TRACE [--run N]\n"
           "        PyTorch structured-trace logs (TORCH_TRACE) into a trace, one run per log\n"
           "        (default: next to the first file, x.log -> x.kiln); prints what each log\n"
           "        became. A torch.profiler Chrome trace (a .json FILE, export_chrome_trace)\n"
           "        adds its measured times as kernel launches: to the run of the log before\n"
           "        it on the command line, else to a new run made from the profile alone;\n"
           "        with --into, to run N of an existing TRACE (default: its last run), which\n"
           "        must have no launches yet. Prints what matched and what did not; a\n"
           "        progress line goes to stderr while large files are read (4 MiB on a\n"
           "        terminal, else 64 MiB)\n"
           "  runs TRACE              list the runs recorded in a trace database, with the\n"
           "                          machine each ran on (CPU, ISA, threads, matmul libraries)\n"
           "  output TRACE [--run N]  print what a run printed (default: the last run)\n"
           "  compiles TRACE [--run N]\n"
           "        torch.compile's compiles: id, function, reason, status, time, ops, graph\n"
           "        id, and the guard that failed for each recompile\n"
           "  breaks TRACE [--run N]  graph breaks in execution order, with reasons and stacks\n"
           "  graph TRACE COMPILE_ID [--run N]\n"
           "        a compile's graph (print_readable) and guards\n"
           "  kernels TRACE [--run N] [--graph ID]\n"
           "        the generated kernels of a run (or of one graph): kind, launches,\n"
           "        total and median time, fused nodes; max-autotune's candidates with\n"
           "        their median, timed runs, spread, and whether measured in this run or\n"
           "        read from the tuning cache\n"
           "  export-diagram TRACE --graph ID [--pre-fusion] [--format svg|png|dot] -o FILE\n"
           "        write a graph's post-fusion (or pre-fusion) diagram, drawn with Graphviz;\n"
           "        ID is the graph column of `kiln compiles`; FILE '-' is stdout; the format\n"
           "        defaults to FILE's extension\n"
           "  bench [WORKLOAD.py ...] [--modes M[,M...]] [--calls N] [--quick] [--json FILE]\n"
           "        [--timeout SECONDS]\n"
           "        the compiler benchmark: for each workload (a file defining fn(*inputs),\n"
           "        or make_step(mode) for a training step, and make_inputs(); default: the\n"
           "        built-in ones, smaller with --quick) and mode\n"
           "        (eager or a torch.compile mode; default: eager,default,\n"
           "        max-autotune-no-cudagraphs), the compile time, first call, median of N\n"
           "        calls (default 10; 3 with --quick), kernels, time relative to eager and\n"
           "        error relative to eager; writes JSON to FILE (default kiln-bench.json)\n"
           "        each workload runs in a process of its own, stopped after --timeout\n"
           "        (default 600 s): a workload that hangs or crashes fails only its rows\n"
           "  version                 print Kiln's version\n"
           "  help                    print this help\n"
           "\n"
           "exit status of run: 0 ok, 1 the script raised an error, 2 usage or setup error or\n"
           "a trace that lost output, 124 the --timeout expired, 130 SIGINT, 128+N stopped by\n"
           "signal N; of bench: 0 ok, 1 a row failed, 2 usage error\n";
}

std::optional<CommandLine> parseCommandLine(int argc, char** argv, std::string& error) {
    CommandLine cl;
    for (int i = 0; i < argc; ++i)
        cl.argv.emplace_back(argv[i]);
    if (argc < 2) {
        error = "missing command";
        return std::nullopt;
    }
    std::string first = argv[1];
    if (first == "--help" || first == "-h") first = "help";
    if (first == "--version") first = "version";
    auto spec = commands().find(first);
    if (spec == commands().end()) {
        error = "unknown command '" + first + "'";
        return std::nullopt;
    }
    cl.command = first;
    for (int i = 2; i < argc; ++i) {
        std::string arg = argv[i];
        // Short options ("-o") are flags only where the command declares them.
        bool shortFlag = arg.size() > 1 && arg[0] == '-' && arg[1] != '-' &&
                         (spec->second.valueFlags.count(arg) || spec->second.boolFlags.count(arg));
        if (!shortFlag && (arg.rfind("--", 0) != 0 || arg == "--")) {
            cl.positional.push_back(arg);
            continue;
        }
        std::string name = arg, value;
        size_t eq = arg.find('=');
        if (eq != std::string::npos) {
            name = arg.substr(0, eq);
            value = arg.substr(eq + 1);
        }
        if (spec->second.boolFlags.count(name)) {
            cl.flags[name] = "";
            continue;
        }
        if (!spec->second.valueFlags.count(name)) {
            error = "unknown option '" + name + "' for '" + cl.command + "'";
            return std::nullopt;
        }
        if (eq == std::string::npos) {
            if (i + 1 >= argc) {
                error = "option '" + name + "' needs a value";
                return std::nullopt;
            }
            value = argv[++i];
        }
        cl.flags[name] = value;
    }
    if (spec->second.variadic ? cl.positional.size() < spec->second.positionals
                              : cl.positional.size() != spec->second.positionals) {
        error = spec->second.positionals == 0
                    ? "'" + cl.command + "' takes no arguments"
                    : "'" + cl.command + "' needs exactly " +
                          std::to_string(spec->second.positionals) + " argument";
        return std::nullopt;
    }
    return cl;
}

} // namespace kiln::app
