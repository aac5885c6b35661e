// SPDX-License-Identifier: MIT
/// \file
/// Helpers for the trace tests: raw SQLite access to check what the writer put in the file
/// independently of TraceReader, file bytes to prove that refused files stay untouched, and
/// recognisable runs and capture events to write.
#pragma once

#include "support/capture_events.h"
#include "support/compiler_events.h"
#include "trace/trace_reader.h"
#include "trace/trace_types.h"
#include "trace/trace_writer.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kiln::testing {

/// A writer or reader of \p path with the current schema; asserts that it opens.
std::unique_ptr<trace::TraceWriter> openWriter(const std::string& path);
std::unique_ptr<trace::TraceReader> openReader(const std::string& path);

/// Polls \p done for up to five seconds (the writer commits within ~50 ms); whether it held.
bool eventually(const std::function<bool()>& done);

/// The whole file, or "" when it cannot be read.
std::string readFileBytes(const std::string& path);
void writeFileBytes(const std::string& path, const std::string& bytes);

/// Runs \p sql on a fresh read-write connection; returns SQLite's message or "" on success.
std::string execSql(const std::string& path, const std::string& sql);
/// The first column of the first row of \p sql as integer, or -1 on any failure.
int64_t queryInt(const std::string& path, const std::string& sql);
/// The first column of every row of \p sql as text.
std::vector<std::string> queryTexts(const std::string& path, const std::string& sql);

/// A RunInfo with every field set to something recognisable.
trace::RunInfo sampleRunInfo(const std::string& workloadPath);

// Capture events with every field set, as the capture layer would report them for
// `fn` in /w/model.py; \p startNs is a monotonicNs() value.
FrameEvent sampleFrame(int64_t frameId);
/// The start report of compile "frameId/index": status empty, no duration or phases.
CompileEvent sampleCompileStart(int64_t frameId, int32_t index, int64_t startNs);
/// \p start finished with \p status after \p durationNs, with three phases.
CompileEvent sampleCompileFinish(CompileEvent start, const std::string& status, int64_t durationNs);
GuardEvent sampleGuard(const std::string& compileId, int index);
/// A graph of \p nodeCount nodes: a placeholder, call_function nodes, an output.
GraphEvent sampleGraph(const std::string& compileId, int32_t graphIndex, int nodeCount);

// Compiler events with every field set, as the compiler and runtime would report them for the
// graph of compile \p compileId.
/// A pointwise kernel `kiln_poi_fused_sin_<kernelId>` fusing sin_1 and sin_2.
KernelEvent sampleKernel(int64_t kernelId, const std::string& compileId, int32_t graphIndex);
/// A CPU launch of \p kernelId from \p startNs (a monotonicNs() value) lasting \p durationNs.
KernelLaunchEvent sampleLaunch(int64_t kernelId, int64_t startNs, int64_t durationNs);
/// A small DOT digraph naming \p kind (pre_fusion or post_fusion) in its label.
DiagramEvent sampleDiagram(const std::string& compileId, int32_t graphIndex,
                           const std::string& kind);

// Schema version 4's measurement facts.
/// The runs.machine JSON of the documented example: AMD EPYC 9B14, avx512, \p threads, and
/// float32, bfloat16 and float64 matmul libraries (in that order).
std::string sampleMachineJson(int threads = 2);
/// A candidate of kernel \p kernelId timed \p runs times: median \p timeNs, spread +-10%.
AutotuneChoiceEvent sampleChoice(int64_t kernelId, const std::string& candidate, int64_t timeNs,
                                 int runs);

} // namespace kiln::testing
