// SPDX-License-Identifier: MIT
// Build-time tool: writes the CUDA source of every precompiled attention kernel (and the
// summary kernel of each masked one) into a folder, one NAME.cu per kernel entry, and the list
// of entries to NAME-list.txt; cmake/EmbedAttentionCubins.cmake compiles them with nvcc.
#include "codegen/cuda/attention_kernel.h"

#include <cstdio>
#include <fstream>
#include <set>
#include <string>

using namespace kiln::codegen::cuda;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: write_attention_sources OUTPUT_DIR\n");
        return 2;
    }
    std::string dir = argv[1];
    std::set<std::string> written;
    std::ofstream list(dir + "/entries.txt");
    auto write = [&](const std::string& entry, const std::string& source) {
        if (!written.insert(entry).second) return true;
        std::ofstream out(dir + "/" + entry + ".cu");
        out << source;
        list << entry << "\n";
        return static_cast<bool>(out);
    };
    for (const AttentionKernelSpec& spec : precompiledAttentionSpecs()) {
        if (!write(attentionKernelName(spec), attentionKernelSource(spec))) return 1;
        if (spec.masked &&
            !write(attentionSummaryKernelName(spec), attentionSummaryKernelSource(spec)))
            return 1;
    }
    return list ? 0 : 1;
}
