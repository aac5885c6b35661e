// SPDX-License-Identifier: MIT
// kiln-bench-compiler: the compiler benchmark on the built-in workloads.
#include "api/compiler_bench.h"

#include <cstdio>
#include <cstring>
#include <fstream>

int main(int argc, char** argv) {
    bool quick = false;
    std::string json = "kiln-bench-compiler.json";
    kiln::api::CompilerBenchOptions options;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick")) {
            quick = true;
        } else if (!std::strcmp(argv[i], "--json") && i + 1 < argc) {
            json = argv[++i];
        } else {
            std::fprintf(stderr, "usage: kiln-bench-compiler [--quick] [--json PATH]\n");
            return 2;
        }
    }
    options.workloads = kiln::api::builtinWorkloads(quick);
    if (quick) options.calls = 3;
    auto rows = kiln::api::runCompilerBench(options);
    std::fputs(kiln::api::formatTable(rows).c_str(), stdout);
    std::ofstream(json) << kiln::api::formatJson(rows);
    std::printf("\nresults written to %s\n", json.c_str());
    for (const auto& r : rows)
        if (!r.error.empty()) return 1;
    return 0;
}
