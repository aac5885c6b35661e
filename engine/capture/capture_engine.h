// SPDX-License-Identifier: MIT
/// \file
/// The capture engine: Kiln's Dynamo. It is the interpreter's frame hook while a compiled
/// region runs. For every Python frame it serves the call from the code object's cache (the
/// first entry whose guards pass runs its compiled graph), or records the recompile and traces
/// a new entry, or runs the frame eagerly (skipped frames, the cache limit). While a frame is
/// traced it inlines the user functions it calls, records torch.nn's modules as call_module,
/// and handles the tracer's graph breaks: the graph so far is compiled and run, the frame goes
/// on eagerly, and the rest of the function becomes a resume point with its own cache.
///
/// Everything it does is reported to the run's EventSink (frames, compiles, guards, recompiles,
/// graph breaks, graphs) and to TORCH_LOGS.
#pragma once

#include "capture/backends.h"
#include "capture/compiled_call_sites.h"
#include "capture/frame_cache.h"
#include "capture/inductor_hook.h"
#include "capture/tracer.h"
#include "support/compile_config.h"
#include "support/compile_overrides.h"
#include "support/event_sink.h"
#include "support/options.h"
#include "support/torch_logger.h"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_set>

namespace kiln::capture {

struct RecompileReport;

/// What one torch.compile(...) asked for (after the run's overrides).
struct CompileSpec {
    Backend backend;
    bool fullgraph = false;
    std::optional<bool> dynamic; ///< None: automatic dynamic
    std::string mode = "default";
    OptionPatch inductorPatch; ///< mode/options for the inductor backend

    /// What makes two torch.compile calls the same backend for Dynamo's BACKEND_MATCH guard:
    /// a custom backend is its callable; inductor is its options and dynamic (2.3's wrapper
    /// compares those); any other backend is its name.
    std::string backendKey() const;
    /// The process-wide id of backendKey() (guards.h backendIdOf), worked out on the first
    /// compiled call and kept: every call of a compiled function sets it as the current one.
    int64_t backendId() const;

private:
    mutable int64_t m_backendId = -1;
};

/// Facts explain() collects while it runs a function.
struct ExplainRecord {
    struct GraphInfo {
        std::shared_ptr<graph::Graph> graph;
        lang::Value module; ///< the GraphModule handed to the backend
    };
    std::vector<GraphInfo> graphs;
    std::vector<BreakReason> breaks;
    std::vector<GuardEvent> guards;                           ///< in compile order
    std::vector<std::pair<std::string, double>> compileTimes; ///< (function, seconds)
};

class CaptureEngine final : public lang::FrameHook, public BreakHandler {
public:
    struct Session;
    /// Sub-expressions of a statement evaluated so far, with their values.
    using Prefix = std::vector<std::pair<const lang::Expr*, lang::Value>>;

    /// `config` is the run's torch._dynamo/_inductor configuration (support/compile_config.h).
    CaptureEngine(lang::Interpreter& interp, CompileConfig& config, EventSink& sink,
                  Logger& logger);
    ~CaptureEngine() override;

    lang::Interpreter& interp() { return m_interp; }
    CompileConfig& config() { return m_config; }
    BackendRegistry& backends() { return m_backends; }
    Logger& logger() { return m_logger; }

    /// Calls `callable` with `spec` as the active compile context (torch.compile's wrapper).
    lang::Value callCompiled(const CompileSpec& spec, const lang::Value& callable,
                             const lang::CallArgs& args);
    /// Calls `callable` with the frame hook off (torch.compiler.disable).
    lang::Value callDisabled(const lang::Value& callable, const lang::CallArgs& args);
    /// torch._dynamo.reset(): forgets every cache entry, frame id and counter.
    void reset();
    /// torch._dynamo.mark_dynamic(t, dim).
    void markDynamic(const tensor::Tensor& t, int64_t dim);
    /// What the run changes in every torch.compile call (kiln run --mode ...).
    void setOverrides(CompileOverrides overrides) { m_overrides = std::move(overrides); }
    const CompileOverrides& overrides() const { return m_overrides; }
    /// Kiln's compiler for the `inductor` backend (installed by the embedding program).
    void setInductorCompiler(InductorCompiler compiler) { m_inductor = std::move(compiler); }
    /// Collects explain() facts while set (not owned).
    void setExplainRecord(ExplainRecord* record) { m_explain = record; }
    /// The compiled functions the script called and their latest arguments (recorded only
    /// when a run measures its compiled frames).
    CompiledCallSites& callSites() { return m_callSites; }
    /// The cache of a function's code object (its start, not its resume points), or null.
    const FrameRecord* functionRecord(const lang::FunctionCode& code) const {
        auto it = m_frames.find(FrameKey{&code, nullptr, -1});
        return it == m_frames.end() ? nullptr : it->second.get();
    }
    /// Graphs compiled so far in this run.
    int32_t graphCount() const { return m_graphCount; }
    /// torch.compiler.is_compiling(): a frame is being traced.
    bool isCompiling() const;
    /// The tracer recording now, or null.
    Tracer* activeTracer() const;

    // --- FrameHook
    lang::Value onCall(lang::FunctionObject& fn, const lang::CallArgs& args,
                       const lang::Value* self) override;
    lang::Flow onResume(lang::Frame& frame, const lang::Stmt& statement, int branch) override;
    lang::Value onExpressionDone(lang::Frame& frame, const lang::Expr& expression,
                                 lang::Value value) override;
    void onFrameExit(lang::Frame& frame, lang::Value& returnValue, bool unwinding) override;

    // --- BreakHandler
    void breakAtTop(Tracer& tracer, const BreakReason& reason) override;
    [[noreturn]] void raiseUnsupported(const BreakReason& reason) override;
    bool skipInPlace(const BreakReason& reason, const std::string& message) override;

private:
    enum class End : uint8_t { Return, Break };

    lang::Value onCallWhileTracing(lang::FunctionObject& fn, const lang::CallArgs& args,
                                   const lang::Value* self);
    FrameRecord& record(const FrameKey& key, const lang::FunctionCode& code);
    const CacheEntry* lookup(FrameRecord& rec, lang::Interpreter& interp,
                             const std::vector<lang::Value>& slots, lang::ModuleObject& globals);
    /// No entry passed: log the recompile, or warn at the limit. False: run eagerly.
    bool admitCompile(FrameRecord& rec, const std::vector<lang::Value>& slots,
                      lang::ModuleObject& globals, std::string& reason);
    /// A call of \p rec past cache_size_limit \p limit, run eagerly: an instant in the trace's
    /// timeline (category "capture", name "cache_limit") with the guard that failed, so the
    /// compiles view can count these calls and say why they were not compiled.
    void reportEagerCall(const FrameRecord& rec, int64_t limit, const RecompileReport& report);

    lang::Value runFunctionEntry(const CacheEntry& e, lang::FunctionObject& fn,
                                 std::vector<lang::Value> slots);
    lang::Flow runResumeEntry(const CacheEntry& e, lang::Frame& f,
                              const std::vector<lang::Value>& slots);
    /// Runs an entry's graph on the frame's inputs, then replays its side effects.
    std::vector<lang::Value> callGraph(const CacheEntry& e, const std::vector<lang::Value>& slots,
                                       lang::ModuleObject& globals);
    std::vector<lang::Value> runGraph(const CacheEntry& e, const std::vector<lang::Value>& slots,
                                      lang::ModuleObject& globals);
    /// Calls a compiled graph with the frame hook off, as Dynamo runs compiled code.
    std::vector<lang::Value> callGraphDisabled(const lang::Value& compiled,
                                               const std::vector<lang::Value>& inputs,
                                               size_t outputCount);
    lang::Value runBackend(Session& s, const lang::Value& gm,
                           const std::vector<lang::Value>& inputs);

    lang::Value traceFunction(FrameRecord& rec, lang::FunctionObject& fn,
                              std::vector<lang::Value> slots, const std::string& reason);
    lang::Flow traceResume(FrameRecord& rec, lang::Frame& f, const lang::Stmt& s, int branch,
                           const std::string& reason);
    void beginSession(Session& s, FrameRecord& rec, const std::string& reason);
    TraceOptions traceOptions(FrameRecord& rec);
    /// Compiles what the session traced and stores the cache entry.
    void finishTrace(Session& s, End end, const lang::Value* returnValue);
    Recipe slotRecipe(Session& s, const lang::Frame& top, size_t i,
                      const std::function<Recipe(const lang::Value&)>& build);
    /// Ends a trace without a cache entry. `undo`: put back in-place changes of pre-existing
    /// tensors (when the frame reruns); without it the frame's eager effects stand.
    void abandonTrace(Session& s, const std::string& status, const std::string& why, bool undo);
    // resume_midway.cpp: resume points in the middle of a statement
    void openContinuation(FrameRecord& rec, lang::Frame& f, const std::vector<lang::Value>& slots,
                          Prefix prefix, const std::string& reason);
    [[noreturn]] void replayContinuation(const CacheEntry& e, lang::Frame& f,
                                         const std::vector<lang::Value>& slots);
    void noteResumeExpression(lang::Frame& f, const lang::Expr& e);
    /// Skips the frame: in place when skipInPlace ends the trace there, else by unwinding with
    /// SkipFrame to rerun it.
    void skipHere(const BreakReason& reason, const std::string& message);
    /// Ends a trace unwound by SkipFrame before the frame reruns eagerly.
    void skipFrame(Session& s, const SkipFrame& skip);
    lang::Value compileGraph(Session& s, const std::shared_ptr<graph::Graph>& g,
                             const std::vector<lang::Value>& exampleInputs, bool& failed);
    void reportCompile(Session& s, const std::string& status, const std::string& failure);
    void reportGraph(Session& s, const graph::Graph& g);
    GuardEvent guardEvent(Session& s, const Guard& g);
    /// The entry's guards, and the reads it does not guard (guard_nn_modules=False).
    void reportGuards(Session& s, const GuardSet& guards, const std::vector<Guard>& notInstalled);
    /// The effective dynamo (and, for inductor, inductor) options, when they changed.
    void reportConfig(Session& s);
    void reportBreak(Session& s, const BreakReason& reason);
    void reportSymbols(Session& s);

    lang::Interpreter& m_interp;
    CompileConfig& m_config;
    EventSink& m_sink;
    Logger& m_logger;
    BackendRegistry m_backends;
    CompileOverrides m_overrides;
    std::vector<const CompileSpec*> m_contexts;
    /// What each active torch.compile call calls (a function, or the module it wraps).
    std::vector<lang::Value> m_targets;
    /// No frame has been seen since the innermost compiled call began: a torch.nn layer's
    /// forward seen now is the module torch.compile wraps, and compiles.
    bool m_entryPending = false;
    std::map<FrameKey, std::unique_ptr<FrameRecord>> m_frames;
    int64_t m_nextFrameId = 0;
    Session* m_session = nullptr;
    /// Traces that go on past a break in the middle of a statement, until their frame leaves.
    std::vector<std::unique_ptr<Session>> m_open;
    ExplainRecord* m_explain = nullptr;
    CompiledCallSites m_callSites;
    int32_t m_graphCount = 0;
    InductorCompiler m_inductor;
    int32_t m_breakOrder = 0;
    std::string m_configFingerprint;
    std::set<std::pair<std::string, int32_t>> m_loggedBreaks; ///< (file, line) shown in the log
    std::map<tensor::TensorImpl*, std::pair<Ref<tensor::TensorImpl>, std::vector<int64_t>>>
        m_markedDynamic;
    /// nn.Module classes a compiled frame stored into an instance of (TraceOptions).
    std::unordered_set<const lang::TypeObject*> m_dynamicModuleClasses;
};

} // namespace kiln::capture
