// SPDX-License-Identifier: MIT
// Frame entry: cache lookup, recompiles and the cache limit, running cached entries.
#include "capture/capture_engine.h"

#include "capture/capture_session.h"
#include "capture/dynamo_errors.h"
#include "capture/value_kinds.h"
#include "support/clock.h"

#include <cstdio>

namespace kiln::capture {

using lang::CallArgs;
using lang::Value;

CaptureEngine::CaptureEngine(lang::Interpreter& interp, CompileConfig& config, EventSink& sink,
                             Logger& logger)
    : m_interp(interp)
    , m_config(config)
    , m_sink(sink)
    , m_logger(logger) {
    m_interp.setFrameHook(this);
}

CaptureEngine::~CaptureEngine() {
    if (m_interp.frameHook() == this) {
        m_interp.setFrameHookActive(false);
        m_interp.setFrameHook(nullptr);
    }
}

std::string CompileSpec::backendKey() const {
    // 2.3 wraps every backend with its mode, options and dynamic, and compares those too.
    std::string key;
    if (backend.kind == Backend::Kind::Custom)
        key = "custom:" + std::to_string(reinterpret_cast<uintptr_t>(
                              backend.callable.isObject() ? backend.callable.asObject() : nullptr));
    else
        key = backend.name;
    key += "|mode=" + mode;
    for (const OptionPatchEntry& e : inductorPatch)
        key += "|" + std::to_string(e.index) + "=" + pythonRepr(e.value);
    key += dynamic ? (*dynamic ? "|dynamic=True" : "|dynamic=False") : "|dynamic=None";
    return key;
}

int64_t CompileSpec::backendId() const {
    if (m_backendId < 0) m_backendId = backendIdOf(backendKey(), backend.callable);
    return m_backendId;
}

Value CaptureEngine::callCompiled(const CompileSpec& spec, const Value& callable,
                                  const CallArgs& args) {
    struct Context {
        CaptureEngine& e;
        bool wasActive;
        bool wasEntryPending;
        int64_t previousBackend;
        Context(CaptureEngine& engine, const CompileSpec& s, const Value& target)
            : e(engine)
            , wasActive(engine.m_interp.frameHookActive())
            , wasEntryPending(engine.m_entryPending)
            , previousBackend(currentBackendId()) {
            e.m_contexts.push_back(&s);
            e.m_targets.push_back(target);
            e.m_entryPending = true;
            e.m_interp.setFrameHookActive(true);
            setCurrentBackendId(s.backendId());
        }
        ~Context() {
            e.m_contexts.pop_back();
            e.m_targets.pop_back();
            e.m_entryPending = wasEntryPending;
            e.m_interp.setFrameHookActive(wasActive);
            setCurrentBackendId(previousBackend);
        }
    } context(*this, spec, callable);
    return m_interp.call(callable, args);
}

Value CaptureEngine::callDisabled(const Value& callable, const CallArgs& args) {
    struct Off {
        lang::Interpreter& interp;
        bool wasActive;
        ~Off() { interp.setFrameHookActive(wasActive); }
    } off{m_interp, m_interp.frameHookActive()};
    m_interp.setFrameHookActive(false);
    return m_interp.call(callable, args);
}

void CaptureEngine::reset() {
    m_frames.clear();
    m_nextFrameId = 0;
    m_markedDynamic.clear();
    m_loggedBreaks.clear();
}

bool CaptureEngine::isCompiling() const {
    return m_session && m_session->tracing();
}

Tracer* CaptureEngine::activeTracer() const {
    return isCompiling() ? m_session->tracer.get() : nullptr;
}

void CaptureEngine::markDynamic(const tensor::Tensor& t, int64_t dim) {
    auto& entry = m_markedDynamic[t.impl()];
    entry.first = t.implRef();
    entry.second.push_back(dim);
}

FrameRecord& CaptureEngine::record(const FrameKey& key, const lang::FunctionCode& code) {
    auto& slot = m_frames[key];
    if (!slot) {
        slot = std::make_unique<FrameRecord>();
        slot->key = key;
        slot->file = code.source ? code.source->path() : "<unknown>";
        slot->firstLine = code.firstLine;
        slot->name = code.name.str();
        if (key.resumeAfter) {
            slot->resumeLine = key.resumeAfter->span.begin.line;
            slot->name = "torch_dynamo_resume_in_" + code.name.str() + "_at_" +
                         std::to_string(slot->resumeLine);
            auto parent = m_frames.find(FrameKey{&code, nullptr, -1});
            if (parent != m_frames.end()) slot->parentFrameId = parent->second->frameId;
        }
    }
    return *slot;
}

const CacheEntry* CaptureEngine::lookup(FrameRecord& rec, lang::Interpreter& interp,
                                        const std::vector<Value>& slots,
                                        lang::ModuleObject& globals) {
    for (const auto& e : rec.entries)
        if (e->guards.firstFailure(interp, slots, globals) < 0) return e.get();
    return nullptr;
}

// --- frame entry

std::vector<Value> frameInputs(std::vector<Value> slots, const lang::FunctionCode& code,
                               const std::vector<Ref<lang::CellObject>>* closure) {
    const size_t free = code.scope->freeNames.size();
    for (size_t i = 0; i < free; ++i)
        slots.push_back(closure && i < closure->size() ? (*closure)[i]->value : Value());
    return slots;
}

Value CaptureEngine::onCall(lang::FunctionObject& fn, const CallArgs& args, const Value* self) {
    if (m_session && m_session->tracing()) return onCallWhileTracing(fn, args, self);
    // torch's own Python runs as is (the frames it calls are still seen), except the forward
    // of the layer torch.compile wraps: torch.compile(nn.Linear(4, 3)) compiles, but a layer
    // called from a frame that runs eagerly (a skipped frame) does not, as in Dynamo 2.3.
    // The wrapped layer's own forward compiles even after its hooks ran as frames of their own.
    const Value* module = self ? self : (args.positional.empty() ? nullptr : &args.positional[0]);
    const bool wrappedForward =
        isLayerForward(fn) && module && !m_targets.empty() && module->identical(m_targets.back());
    if (isLibraryFunction(fn) && !(isLayerForward(fn) && (m_entryPending || wrappedForward)))
        return Value();
    if (isSkippedStdlibFunction(fn)) return Value();
    m_entryPending = false;
    if (m_contexts.empty()) return Value();
    // Dynamo does not compile a generator function's frame: calling it makes the generator,
    // whose body runs as it is consumed (inlined when consumed inside a traced frame).
    if (fn.code->isGenerator) return Value();
    FrameRecord& rec = record(FrameKey{fn.code.get(), nullptr, -1}, *fn.code);
    if (rec.skip) return Value();
    std::vector<Value> slots = m_interp.bindToSlots(fn, args, self);
    std::vector<Value> inputs = frameInputs(slots, *fn.code, &fn.closure);
    if (const CacheEntry* e = lookup(rec, m_interp, inputs, *fn.globals))
        return runFunctionEntry(*e, fn, std::move(inputs));
    std::string reason;
    if (!admitCompile(rec, inputs, *fn.globals, reason))
        return m_interp.runFrame(fn, std::move(slots), {});
    return traceFunction(rec, fn, std::move(slots), reason);
}

Value CaptureEngine::onCallWhileTracing(lang::FunctionObject& fn, const CallArgs& args,
                                        const Value* self) {
    Tracer& tracer = *m_session->tracer;
    bool isModuleCall = isLibraryFunction(fn) && fn.code->qualifiedName == "Module.__call__";
    if (isModuleCall) {
        Value module = self ? *self : (args.positional.empty() ? Value() : args.positional[0]);
        const bool guardEmptyHooks = !m_config.dynamo().flag("skip_nnmodule_hook_guards");
        // A child reached without a source of its own (Sequential's loop over its children)
        // is found through its parent, as Dynamo 2.3 registers each child of an unrolled
        // Sequential: it is called as L__self___seq_0, and its parameters stay live.
        const SourcePtr* source = tracer.moduleSourceOf(module);
        if (source) tracer.guardForwardHooks(module, *source, guardEmptyHooks);
        if (source && isLibraryModule(m_interp, module) && !isContainerModule(m_interp, module) &&
            !hasForwardHooks(module)) {
            CallArgs inputs = args;
            if (!self) inputs.positional = inputs.positional.subspan(1);
            return tracer.recordLibraryCall(
                module, (*source)->moduleAttributeName(), graph::NodeOp::CallModule, inputs,
                [&] { return m_interp.callFunctionDirect(fn, args, self); });
        }
    }
    Value result = tracer.inlineCall(fn, args, self);
    if (!result.isEmpty()) return result;
    // The call broke the graph: the caller's graph has been compiled; the callee runs as a
    // frame of its own.
    return onCall(fn, args, self);
}

lang::Flow CaptureEngine::onResume(lang::Frame& f, const lang::Stmt& statement, int branch) {
    FrameRecord& rec = record(FrameKey{f.code, &statement, branch}, *f.code);
    if (rec.skip) return m_interp.runAfter(f, statement, branch);
    size_t slotCount = f.code->scope->slots.size();
    std::vector<Value> slots =
        frameInputs(std::vector<Value>(f.slots, f.slots + slotCount), *f.code, f.closure);
    if (const CacheEntry* e = lookup(rec, m_interp, slots, *f.globals))
        return runResumeEntry(*e, f, slots);
    std::string reason;
    if (!admitCompile(rec, slots, *f.globals, reason))
        return m_interp.runAfter(f, statement, branch);
    return traceResume(rec, f, statement, branch, reason);
}

// --- cache hits

std::vector<Value> CaptureEngine::callGraph(const CacheEntry& e, const std::vector<Value>& slots,
                                            lang::ModuleObject& globals) {
    std::vector<Value> outputs = runGraph(e, slots, globals);
    for (const CacheEntry::SideEffect& effect : e.sideEffects) {
        Value target = effect.target->fetch(m_interp, slots, globals);
        Value value = materialise(m_interp, effect.value, outputs, slots, globals);
        switch (effect.kind) {
        case CacheEntry::SideEffect::Kind::Attribute:
            m_interp.setAttr(target, lang::Symbol::intern(m_interp.str(effect.key)), value);
            break;
        case CacheEntry::SideEffect::Kind::Item:
            m_interp.setItem(target, effect.key, value);
            break;
        case CacheEntry::SideEffect::Kind::Append:
            if (target.is(lang::ObjectKind::List))
                target.as<lang::ListObject>()->items.push_back(value);
            break;
        }
    }
    return outputs;
}

std::vector<Value> CaptureEngine::runGraph(const CacheEntry& e, const std::vector<Value>& slots,
                                           lang::ModuleObject& globals) {
    if (e.compiled.isEmpty()) return {};
    std::vector<Value> inputs;
    inputs.reserve(e.inputs.size());
    for (const SourcePtr& s : e.inputs)
        inputs.push_back(s->fetch(m_interp, slots, globals));
    return callGraphDisabled(e.compiled, inputs, e.graph->outputCount());
}

Value CaptureEngine::runFunctionEntry(const CacheEntry& e, lang::FunctionObject& fn,
                                      std::vector<Value> slots) {
    std::vector<Value> outputs = callGraph(e, slots, *fn.globals);
    if (!e.endsInBreak) return materialise(m_interp, e.returnValue, outputs, slots, *fn.globals);
    std::vector<Value> state;
    state.reserve(e.slots.size());
    for (const Recipe& r : e.slots)
        state.push_back(materialise(m_interp, r, outputs, slots, *fn.globals));
    lang::ExpressionMemo memo;
    for (const auto& [expr, r] : e.memo)
        memo[expr] = materialise(m_interp, r, outputs, slots, *fn.globals);
    lang::ResumeRequest resume{e.breakStatement, e.breakAtBranch, !e.breakAtBranch, e.resumeExpr};
    lang::Interpreter::FrameStart start;
    start.mode = lang::Interpreter::FrameStart::Mode::AtStatement;
    start.statement = e.breakStatement;
    start.memo = &memo;
    start.resume = &resume;
    return m_interp.runFrame(fn, std::move(state), start);
}

lang::Flow CaptureEngine::runResumeEntry(const CacheEntry& e, lang::Frame& f,
                                         const std::vector<Value>& slots) {
    std::vector<Value> outputs = callGraph(e, slots, *f.globals);
    if (!e.endsInBreak) {
        f.returnValue = materialise(m_interp, e.returnValue, outputs, slots, *f.globals);
        return lang::Flow::Return;
    }
    for (size_t i = 0; i < e.slots.size(); ++i) {
        Value v = materialise(m_interp, e.slots[i], outputs, slots, *f.globals);
        if (f.slots[i].is(lang::ObjectKind::Cell) && v.is(lang::ObjectKind::Cell))
            f.slots[i].as<lang::CellObject>()->value = v.as<lang::CellObject>()->value;
        else
            f.slots[i] = std::move(v);
    }
    lang::ExpressionMemo memo;
    for (const auto& [expr, r] : e.memo)
        memo[expr] = materialise(m_interp, r, outputs, slots, *f.globals);
    lang::ResumeRequest resume{e.breakStatement, e.breakAtBranch, !e.breakAtBranch, e.resumeExpr};
    f.memo = &memo;
    f.resume = &resume;
    lang::Flow flow = m_interp.runFromStatement(f, *e.breakStatement);
    f.memo = nullptr;
    f.resume = nullptr;
    return flow;
}

// --- misses

bool CaptureEngine::admitCompile(FrameRecord& rec, const std::vector<Value>& slots,
                                 lang::ModuleObject& globals, std::string& reason) {
    reason = rec.entries.empty() ? "first" : "recompile";
    if (rec.entries.empty()) return true;
    if (rec.frameId < 0) rec.frameId = m_nextFrameId++;
    std::string nextId = std::to_string(rec.frameId) + "/" + std::to_string(rec.compileCount);
    RecompileReport report = describeRecompile(m_interp, rec, slots, globals);
    int64_t limit = m_config.dynamo().integer("cache_size_limit").value_or(64);
    if (static_cast<int64_t>(rec.entries.size()) >= limit) {
        if (!rec.limitWarned) {
            rec.limitWarned = true;
            KILN_TORCH_LOG(m_logger, LogLevel::Warning, "torch._dynamo.convert_frame", nextId,
                           cacheLimitMessage(rec, limit, report));
        }
        reportEagerCall(rec, limit, report);
        return false;
    }
    if (m_config.dynamo().flag("error_on_recompile"))
        raiseDynamoError(m_interp, "RecompileError", recompileMessage(rec, report, false));
    KILN_TORCH_ARTIFACT(m_logger, Artifact::Recompiles, nextId,
                        recompileMessage(rec, report, false));
    KILN_TORCH_ARTIFACT(m_logger, Artifact::RecompilesVerbose, nextId,
                        recompileMessage(rec, report, true));
    for (const RecompileReport::Failure& failure : report.failures) {
        RecompileEvent ev;
        ev.compileId = nextId;
        ev.failedCompileId = failure.compileId;
        ev.guardSource = failure.source;
        ev.expected = failure.expected;
        ev.actual = failure.actual;
        ev.reason = failure.text;
        m_sink.recompile(ev);
    }
    return true;
}

namespace {

/// \p text as a JSON string literal.
std::string jsonString(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

} // namespace

void CaptureEngine::reportEagerCall(const FrameRecord& rec, int64_t limit,
                                    const RecompileReport& report) {
    TimelineEvent event;
    event.category = "capture";
    event.name = "cache_limit";
    event.startNs = monotonicNs();
    std::string detail =
        "{\"frame_id\": " + std::to_string(rec.frameId) + ", \"limit\": " + std::to_string(limit);
    // The entry tried first (the newest) and its first failing guard say why this call missed.
    if (!report.failures.empty()) {
        const RecompileReport::Failure& f = report.failures.front();
        event.compileId = f.compileId;
        detail += ", \"guard\": " + jsonString(f.source) +
                  ", \"expected\": " + jsonString(f.expected) +
                  ", \"actual\": " + jsonString(f.actual);
    }
    event.detailJson = detail + "}";
    m_sink.timeline(event);
}

} // namespace kiln::capture
