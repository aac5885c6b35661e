// SPDX-License-Identifier: MIT
/// \file
/// The capture engine's private pieces, shared by its implementation files: one trace of a
/// frame in progress (a Session), and the texts of recompile reports.
#pragma once

#include "capture/capture_engine.h"
#include "lang/scope.h"
#include "tensor/random.h"

namespace kiln::capture {

/// One trace of one code object: from the frame's entry (or resume point) until its graph is
/// compiled at a return or a graph break.
struct CaptureEngine::Session {
    FrameRecord* rec = nullptr;
    const CompileSpec* spec = nullptr;
    std::unique_ptr<Tracer> tracer;
    CompileEvent compile;
    std::vector<lang::Value> entrySlots; ///< the frame's locals when the trace began
    lang::ModuleObject* globals = nullptr;
    lang::ResumeRequest resume; ///< where the frame hands back to the hook after a break
    bool done = false;          ///< compiled (or abandoned): the tracer is gone
    int64_t traceStartNs = 0;
    CacheEntry* breakEntry = nullptr; ///< the entry this trace made when it broke
    /// The random generator when the trace began: the compiled graph's first run draws the
    /// numbers shadow execution drew, so compiled and eager results agree.
    tensor::Generator rngAtStart;
    /// Grad mode when the trace began: a frame traced again from its start after a skip gets
    /// it back (the trace stopped inside the frame without running its `finally` blocks).
    bool gradModeAtStart = true;
    // A continuation (resume_midway.cpp): it lives in m_open until its frame leaves.
    const lang::Frame* frame = nullptr;
    Session* previous = nullptr; ///< the engine's session before this one opened
    /// The frame's replay memo when this trace began (see onExpressionDone).
    const lang::ExpressionMemo* memoAtStart = nullptr;
    /// The inductor backend's report of kernels and diagrams, run once the graph is reported.
    std::function<void()> afterGraphReported;
    std::shared_ptr<graph::Graph> graph; ///< the graph being compiled

    bool tracing() const { return tracer && tracer->installed(); }
};

/// Why no cache entry of a code object accepted a call: per entry (newest first), its failing
/// guards (the first one is what TORCH_LOGS=recompiles shows).
struct RecompileReport {
    struct Failure {
        std::string compileId; ///< the entry's
        std::string source;    ///< of the first failing guard
        std::string expected;
        std::string actual;
        std::string text;             ///< the first failing guard, as PyTorch words it
        std::vector<std::string> all; ///< every failing guard (recompiles_verbose)
    };
    std::vector<Failure> failures;
};

RecompileReport describeRecompile(lang::Interpreter& interp, const FrameRecord& rec,
                                  const std::vector<lang::Value>& slots,
                                  lang::ModuleObject& globals);
/// "Recompiling function f in x.py:3\n    triggered by the following guard failure(s):..."
std::string recompileMessage(const FrameRecord& rec, const RecompileReport& report, bool verbose);
/// The one-time warning when a code object reaches cache_size_limit.
std::string cacheLimitMessage(const FrameRecord& rec, int64_t limit, const RecompileReport& report);

/// What a frame's guards and graph inputs read: its local slots, then the contents of its
/// closure cells (Dynamo sees free variables among a frame's locals), L['name'] either way.
std::vector<lang::Value> frameInputs(std::vector<lang::Value> slots, const lang::FunctionCode& code,
                                     const std::vector<Ref<lang::CellObject>>* closure);

/// A compiled graph's result as the list of its outputs (graphs return tuples).
std::vector<lang::Value> graphOutputs(lang::Interpreter& interp, const lang::Value& result,
                                      size_t count);
/// nn.Sequential, nn.ModuleList and nn.ModuleDict: their calls are inlined, not call_module.
bool isContainerModule(lang::Interpreter& interp, const lang::Value& module);

} // namespace kiln::capture
