// SPDX-License-Identifier: MIT
// libFuzzer target: a trace database's bytes (a mutated Kiln trace: damaged pages, headers,
// schemas and rows) opened by trace::TraceReader and read through every query Studio and the
// command line use. A damaged file must come back as an error with a kind and a message, or as
// rows, never as a crash, a hang, a leak or undefined behaviour.
#include "trace/trace_reader.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

/// One file per process (libFuzzer may run several), with the sidecars SQLite may leave.
const std::string& databasePath() {
    static const std::string path = "/tmp/kiln-fuzz-trace-" + std::to_string(::getpid()) + ".kiln";
    return path;
}

void removeDatabase() {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        std::remove((databasePath() + suffix).c_str());
}

/// A failed query is fine; a failure without a kind or a message is not.
template <typename T>
bool good(const kiln::Expected<T>& result) {
    if (!result.ok() && (result.error().kind.empty() || result.error().message.empty()))
        __builtin_trap();
    return result.ok();
}

void readRun(const kiln::trace::TraceReader& reader, int64_t run) {
    good(reader.run(run));
    good(reader.outputLines(run));
    good(reader.frames(run));
    good(reader.compiles(run));
    good(reader.guards(run));
    good(reader.recompiles(run));
    good(reader.graphBreaks(run));
    good(reader.config(run));
    good(reader.events(run));
    good(reader.kernelLaunches(run));
    good(reader.kernelLaunchStats(run));
    good(reader.graphNodesOfRun(run));
    good(reader.autotuneChoicesOfRun(run));
    auto graphs = reader.graphs(run);
    if (good(graphs))
        for (size_t i = 0; i < std::min<size_t>(graphs->size(), 4); ++i) {
            int64_t id = (*graphs)[i].id;
            good(reader.graph(id));
            good(reader.graphNodes(id));
            good(reader.graphKernels(id));
            good(reader.diagrams(id));
        }
    auto kernels = reader.kernels(run);
    if (good(kernels))
        for (size_t i = 0; i < std::min<size_t>(kernels->size(), 4); ++i) {
            good(reader.autotuneChoices(run, (*kernels)[i].id));
            good(reader.kernelLaunchStats(run, (*kernels)[i].id));
        }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    removeDatabase();
    {
        std::ofstream out(databasePath(), std::ios::binary);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    {
        auto reader = kiln::trace::TraceReader::open(databasePath());
        if (good(reader)) {
            good((*reader)->meta());
            good((*reader)->dataVersion());
            auto runs = (*reader)->listRuns();
            if (good(runs)) {
                for (size_t i = 0; i < std::min<size_t>(runs->size(), 4); ++i)
                    readRun(**reader, (*runs)[i].id);
                readRun(**reader, 987654321); // a run the file does not have
            }
        }
    }
    removeDatabase();
    return 0;
}
