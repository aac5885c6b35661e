// SPDX-License-Identifier: MIT
// Tracing a frame: the session from the frame's entry (or resume point) to its return or its
// graph break, and turning what was traced into a cache entry.
#include "capture/capture_session.h"
#include "capture/sym_ints.h"
#include "capture/value_kinds.h"
#include "support/clock.h"
#include "tensor/convert.h"
#include "tensor/device_transfer.h"
#include "tensor/grad_node.h"

namespace kiln::capture {

using lang::Value;

namespace {

/// Makes `session` the engine's current one for a scope.
class SessionScope {
public:
    SessionScope(CaptureEngine::Session*& current, CaptureEngine::Session* session)
        : m_current(current)
        , m_previous(current) {
        m_current = session;
    }
    ~SessionScope() { m_current = m_previous; }
    SessionScope(const SessionScope&) = delete;
    SessionScope& operator=(const SessionScope&) = delete;

private:
    CaptureEngine::Session*& m_current;
    CaptureEngine::Session* m_previous;
};

/// A frame's locals, cell contents included, so a skipped trace can start over.
struct FrameSnapshot {
    std::vector<Value> slots;
    std::vector<Value> cellContents;

    FrameSnapshot(const Value* from, size_t count)
        : slots(from, from + count) {
        for (const Value& v : slots)
            cellContents.push_back(v.is(lang::ObjectKind::Cell) ? v.as<lang::CellObject>()->value
                                                                : Value());
    }
    void restore(Value* to) const {
        for (size_t i = 0; i < slots.size(); ++i) {
            to[i] = slots[i];
            if (slots[i].is(lang::ObjectKind::Cell))
                slots[i].as<lang::CellObject>()->value = cellContents[i];
        }
    }
};

} // namespace

// --- sessions

void CaptureEngine::beginSession(Session& s, FrameRecord& rec, const std::string& reason) {
    s.rec = &rec;
    s.spec = m_contexts.back();
    if (rec.frameId < 0) rec.frameId = m_nextFrameId++;
    if (rec.compileCount == 0) {
        FrameEvent frame;
        frame.frameId = rec.frameId;
        frame.function = rec.name;
        frame.file = rec.file;
        frame.line = rec.firstLine;
        frame.kind = rec.key.resumeAfter ? "resume" : "function";
        frame.parentFrameId = rec.parentFrameId;
        frame.resumeLine = rec.resumeLine;
        m_sink.frame(frame);
    }
    s.compile.compileId = std::to_string(rec.frameId) + "/" + std::to_string(rec.compileCount);
    s.compile.frameId = rec.frameId;
    s.compile.compileIndex = rec.compileCount++;
    s.compile.reason = reason;
    s.compile.startNs = monotonicNs();
    s.compile.backend = s.spec->backend.name;
    s.compile.mode = s.spec->mode;
    m_sink.compile(s.compile);
    reportConfig(s);
    KILN_TORCH_LOG(m_logger, LogLevel::Info, "torch._dynamo.symbolic_convert", s.compile.compileId,
                   "Step 1: torchdynamo start tracing " + rec.name + " " + rec.file + ":" +
                       std::to_string(rec.key.resumeAfter ? rec.resumeLine : rec.firstLine));
    s.tracer = std::make_unique<Tracer>(m_interp, *this, traceOptions(rec));
    s.rngAtStart = tensor::defaultGenerator();
    s.gradModeAtStart = tensor::gradModeEnabled();
    s.traceStartNs = monotonicNs();
}

TraceOptions CaptureEngine::traceOptions(FrameRecord& rec) {
    TraceOptions o;
    const CompileSpec& spec = *m_contexts.back();
    const OptionValues& config = m_config.dynamo();
    o.fullgraph = spec.fullgraph;
    o.captureScalarOutputs = config.flag("capture_scalar_outputs");
    o.guardNnModules = config.flag("guard_nn_modules");
    o.dynamicModuleClasses = &m_dynamicModuleClasses;
    const bool automatic = config.flag("automatic_dynamic_shapes");
    const bool allDynamic = spec.dynamic == true ||
                            (!spec.dynamic.has_value() && !config.flag("assume_static_by_default"));
    const bool neverDynamic = spec.dynamic == false;
    o.dynamicDims = [this, &rec, automatic, allDynamic, neverDynamic](const Source& source,
                                                                      const tensor::Tensor& t) {
        const auto& sizes = t.sizes();
        std::vector<bool> dims(sizes.size(), allDynamic);
        // Automatic dynamic: a dim whose size changed since the last compile becomes dynamic.
        InputHistory& history = rec.inputs[source.str()];
        if (history.sizes.size() == sizes.size()) {
            for (size_t d = 0; d < sizes.size(); ++d)
                if (history.sizes[d] != sizes[d]) history.dynamic[d] = true;
        } else {
            history.dynamic.assign(sizes.size(), false);
        }
        history.sizes.assign(sizes.begin(), sizes.end());
        auto marked = m_markedDynamic.find(t.impl());
        for (size_t d = 0; d < sizes.size(); ++d) {
            if (automatic && history.dynamic[d]) dims[d] = true;
            if (marked != m_markedDynamic.end() &&
                std::count(marked->second.second.begin(), marked->second.second.end(),
                           static_cast<int64_t>(d)))
                dims[d] = true;
            if (neverDynamic || sizes[d] < 2) dims[d] = false; // 0 and 1 are always specialised
        }
        return dims;
    };
    // Ints are static at first and become SymInt inputs once they changed (2.3's automatic
    // dynamic for ints); dynamic=True makes them SymInts at once.
    o.dynamicInt = [&rec, automatic, allDynamic, neverDynamic](const Source& source,
                                                               int64_t value) {
        InputHistory& history = rec.inputs[source.str()];
        if (history.sizes.size() == 1 && history.sizes[0] != value) history.dynamic.assign(1, true);
        if (history.sizes.size() != 1) history.dynamic.assign(1, false);
        history.sizes.assign(1, value);
        return !neverDynamic && (allDynamic || (automatic && history.dynamic[0]));
    };
    return o;
}

// --- tracing a function from its start

Value CaptureEngine::traceFunction(FrameRecord& rec, lang::FunctionObject& fn,
                                   std::vector<Value> slots, const std::string& reason) {
    Session s;
    s.globals = fn.globals.get();
    s.entrySlots = slots;
    beginSession(s, rec, reason);
    SessionScope scope(m_session, &s);
    lang::Interpreter::FrameStart start;
    start.entered = [&](lang::Frame& f) {
        s.memoAtStart = f.memo;
        s.tracer->setTopFrame(&f);
        s.tracer->registerInputs(*fn.code, frameInputs(s.entrySlots, *fn.code, &fn.closure));
        s.tracer->install();
    };
    Value result;
    try {
        result = m_interp.runFrame(fn, slots, start);
    } catch (const SkipFrame& skip) {
        skipFrame(s, skip);
        return m_interp.runFrame(fn, std::move(s.entrySlots), {});
    } catch (const lang::TraceUnwind&) {
        throw;
    } catch (...) {
        abandonTrace(s, "failed", "the frame raised while it was traced", false);
        throw;
    }
    if (!s.done) finishTrace(s, End::Return, &result);
    return concreteValue(m_interp, result);
}

// --- tracing the rest of a function after a graph break

lang::Flow CaptureEngine::traceResume(FrameRecord& rec, lang::Frame& f, const lang::Stmt& st,
                                      int branch, const std::string& reason) {
    const size_t slotCount = f.code->scope->slots.size();
    FrameSnapshot snapshot(f.slots, slotCount);
    Session s;
    s.globals = f.globals;
    s.entrySlots = snapshot.slots;
    beginSession(s, rec, reason);
    SessionScope scope(m_session, &s);
    s.memoAtStart = f.memo;
    s.tracer->setTopFrame(&f);
    s.tracer->registerInputs(*f.code, frameInputs(s.entrySlots, *f.code, f.closure));
    s.tracer->install();
    lang::Flow flow;
    try {
        flow = m_interp.runAfter(f, st, branch);
    } catch (const SkipFrame& skip) {
        skipFrame(s, skip);
        snapshot.restore(f.slots);
        return m_interp.runAfter(f, st, branch);
    } catch (const lang::TraceUnwind&) {
        throw;
    } catch (...) {
        abandonTrace(s, "failed", "the frame raised while it was traced", false);
        throw;
    }
    if (!s.done) {
        Value result = flow == lang::Flow::Return ? f.returnValue : Value::none();
        finishTrace(s, End::Return, &result);
        if (flow == lang::Flow::Return) f.returnValue = concreteValue(m_interp, f.returnValue);
    }
    return flow;
}

// --- ends of a trace

void CaptureEngine::breakAtTop(Tracer& tracer, const BreakReason& reason) {
    Session& s = *m_session;
    KILN_ASSERT(s.tracer.get() == &tracer, "a break reached a session that is not tracing");
    lang::Frame* top = tracer.topFrame();
    const lang::Stmt* statement = top->currentStmt;
    // Where a statement cannot be resumed in the middle, the frame goes on eagerly.
    if (reason.kind == BreakKind::DataDependent && statement->kind == lang::StmtKind::While) {
        skipHere(reason, "Skipping frame because there is a graph break in a while test");
        return;
    }
    if (!tracer.memoReliable()) {
        skipHere(reason, "Skipping frame because the breaking statement evaluates an "
                         "expression twice");
        return;
    }
    if (statement->kind == lang::StmtKind::AugAssign &&
        static_cast<const lang::AugAssignStmt*>(statement)->target->kind != lang::ExprKind::Name) {
        // x.v += f(...): the target's old value is held by the statement, not by a name.
        skipHere(reason, "Skipping frame because the break is in an augmented assignment "
                         "to an attribute or item");
        return;
    }
    reportBreak(s, reason);
    s.resume.statement = statement;
    s.resume.atBranch =
        reason.kind == BreakKind::DataDependent && statement->kind == lang::StmtKind::If;
    s.resume.awaitExpression = !s.resume.atBranch;
    const size_t entries = s.rec->entries.size();
    finishTrace(s, End::Break, nullptr);
    if (s.rec->entries.size() > entries) s.breakEntry = s.rec->entries.front().get();
    if (!s.rec->skip) top->resume = &s.resume;
}

void CaptureEngine::abandonTrace(Session& s, const std::string& status, const std::string& why,
                                 bool undo) {
    if (s.done) return;
    s.tracer->uninstall();
    if (undo) {
        s.tracer->undoInPlaceChanges();
        s.tracer->undoStores();
        tensor::setGradModeEnabled(s.gradModeAtStart);
    }
    s.done = true;
    reportCompile(s, status, why);
}

void CaptureEngine::skipHere(const BreakReason& reason, const std::string& message) {
    if (!skipInPlace(reason, message)) throw SkipFrame{{}, reason, message};
}

void CaptureEngine::skipFrame(Session& s, const SkipFrame& skip) {
    reportBreak(s, skip.reason);
    KILN_TORCH_LOG(m_logger, LogLevel::Info, "torch._dynamo.convert_frame", s.compile.compileId,
                   skip.message + "\n" + formatUserStack(skip.reason.stack));
    s.rec->skip = true;
    s.rec->skipReason = skip.message;
    abandonTrace(s, "skipped", skip.message, true);
    tensor::defaultGenerator() = s.rngAtStart; // the rerun draws what shadow execution drew
}

void CaptureEngine::reportSymbols(Session& s) {
    // TORCH_LOGS=dynamic: the symbols the trace created and those it had to specialise.
    const std::string& id = s.compile.compileId;
    for (const SymbolInfo& sym : s.tracer->symbols()) {
        if (sym.duck) continue; // created once, for its first dim
        const std::string where = sym.source->str() + ".size()[" + std::to_string(sym.dim) + "]";
        KILN_TORCH_LOG(m_logger, LogLevel::Info, "torch.fx.experimental.symbolic_shapes", id,
                       "create_symbol " + sym.name + " = " + std::to_string(sym.hint) + " for " +
                           where + " [2, int_oo]");
        if (sym.specialized)
            KILN_TORCH_LOG(m_logger, LogLevel::Info, "torch.fx.experimental.symbolic_shapes", id,
                           "set_replacement " + sym.name + " = " + std::to_string(sym.hint) +
                               " (a size read as a Python int specialised it)");
        else
            KILN_TORCH_LOG(m_logger, LogLevel::Info, "torch.fx.experimental.symbolic_shapes", id,
                           "produce_guards: 2 <= " + where);
    }
}

namespace {

/// The entry value of local `i` (a cell's content for cell slots).
Value entryValue(const std::vector<Value>& entrySlots, size_t i) {
    if (i >= entrySlots.size()) return Value();
    const Value& v = entrySlots[i];
    return v.is(lang::ObjectKind::Cell) ? v.as<lang::CellObject>()->value : v;
}

} // namespace

Recipe CaptureEngine::slotRecipe(Session& s, const lang::Frame& top, size_t i,
                                 const std::function<Recipe(const Value&)>& build) {
    // A local that still holds what the frame was called with is read from the next call's
    // frame: a value the trace never read has no guard, so it must not be baked in.
    const Value& slot = top.slots[i];
    const Value before = entryValue(s.entrySlots, i);
    if (!slot.isEmpty() && !slot.is(lang::ObjectKind::Cell) && !before.isEmpty() &&
        slot.identical(before)) {
        Recipe r;
        r.kind = Recipe::Kind::FromSource;
        r.source = Source::local(static_cast<int32_t>(i), top.code->scope->slots[i].str());
        return r;
    }
    return build(slot);
}

void CaptureEngine::finishTrace(Session& s, End end, const Value* returnValue) {
    Tracer& t = *s.tracer;
    t.uninstall();
    s.done = true;
    if (end == End::Return) t.clearMemo();
    if (end == End::Return && !t.hasOps()) {
        s.rec->skip = true;
        s.rec->skipReason = "No ops traced for the FX graph";
        KILN_TORCH_LOG(m_logger, LogLevel::Debug, "torch._dynamo.convert_frame",
                       s.compile.compileId,
                       "Received signal to skip frame (without graph break): No ops traced for "
                       "the FX graph. `torch.compile` will skip the frame and fall back to eager.");
        t.undoInPlaceChanges();
        reportCompile(s, "no_ops", s.rec->skipReason);
        return;
    }
    const int64_t traceEnd = monotonicNs();
    s.compile.phases.emplace_back("trace", traceEnd - s.traceStartNs);

    auto entry = std::make_unique<CacheEntry>();
    std::vector<int32_t> outputs = t.liveOutputs();
    RecipeBuilder recipes(m_interp, t, outputs);
    std::string recipeFailure;
    auto build = [&](const Value& v) {
        std::optional<Recipe> r = recipes.build(v);
        if (!r && recipeFailure.empty()) recipeFailure = recipes.failure();
        return r.value_or(Recipe{});
    };
    if (end == End::Return) {
        entry->returnValue = build(*returnValue);
    } else {
        lang::Frame& top = *t.topFrame();
        entry->endsInBreak = true;
        entry->breakStatement = s.resume.statement;
        entry->breakAtBranch = s.resume.atBranch;
        for (size_t i = 0; i < top.code->scope->slots.size(); ++i)
            entry->slots.push_back(slotRecipe(s, top, i, build));
        for (const auto& [expr, value] : t.memo())
            entry->memo.emplace_back(expr, build(value));
        // The frame goes on eagerly: its SymInts become the ints they stand for.
        for (size_t i = 0; i < top.code->scope->slots.size(); ++i)
            top.slots[i] = concreteValue(m_interp, top.slots[i]);
    }
    for (const Tracer::SideEffect& e : t.sideEffects())
        entry->sideEffects.push_back(
            {static_cast<CacheEntry::SideEffect::Kind>(e.kind), e.target, e.key, build(e.value)});
    // Recipes may specialise sizes (a SymInt that leaves the graph), so symbols settle here.
    t.nameUnusedIntSymbols();
    reportSymbols(s);
    t.applySpecializations();
    t.liftSizeSymbols();
    std::vector<Value> shadows;
    for (int32_t node : outputs)
        shadows.push_back(t.valueOfNode(node));

    if (t.hasOps()) t.recordGradMode();
    auto g = std::make_shared<graph::Graph>(t.graph());
    graph::Node out;
    out.op = graph::NodeOp::Output;
    out.name = "output";
    out.target = "output";
    std::vector<graph::Arg> items;
    for (int32_t node : outputs)
        items.push_back(graph::Arg::ofNode(node));
    out.args.push_back(graph::Arg::ofSequence(graph::Arg::Kind::Tuple, std::move(items)));
    g->add(std::move(out));
    g->hoistPlaceholders(t.placeholderOrder()); // node indices of the trace: before removals
    g->removeUnreadGetItems();

    bool failed = false;
    const int64_t backendStart = monotonicNs();
    Value compiled = t.hasOps() ? compileGraph(s, g, t.backendExampleInputs(), failed) : Value();
    s.compile.phases.emplace_back("backend_compile", monotonicNs() - backendStart);
    if (failed) {
        // suppress_errors: the frame's eager results stand (shadow execution computed them).
        s.rec->skip = true;
        s.rec->skipReason = "backend failed (suppress_errors)";
        reportCompile(s, "failed", s.rec->skipReason);
        return;
    }
    t.undoInPlaceChanges();
    if (!compiled.isEmpty()) {
        tensor::defaultGenerator() = s.rngAtStart; // the graph redraws shadow execution's numbers
        std::vector<Value> results = callGraphDisabled(compiled, t.exampleInputs(), outputs.size());
        for (size_t i = 0; i < results.size(); ++i)
            if (results[i].isTensor() && shadows[i].isTensor() &&
                results[i].tensorImpl() != shadows[i].tensorImpl()) {
                tensor::overwriteWith(shadows[i].asTensor(), results[i].asTensor());
                // The compiled graph's backward (CompiledFunctionBackward) replaces the one
                // shadow execution recorded, as the first call's outputs are the graph's.
                const tensor::Tensor& r = results[i].asTensor();
                if (r.gradNode()) {
                    tensor::Tensor shadow = shadows[i].asTensor();
                    tensor::setGradNode(shadow, r.gradNode(), r.impl()->gradOutputNr);
                }
            }
    }
    if (!recipeFailure.empty()) {
        s.rec->skip = true;
        s.rec->skipReason = "cannot rebuild " + recipeFailure;
        reportCompile(s, end == End::Break ? "break" : "ok", s.rec->skipReason);
        return;
    }
    entry->compileId = s.compile.compileId;
    t.settleModuleGuards();
    entry->guards = t.guards();
    entry->inputs = t.inputSources();
    entry->compiled = compiled;
    entry->graph = t.hasOps() ? g : nullptr;
    reportGuards(s, entry->guards, t.unguardedModuleReads());
    if (entry->graph) reportGraph(s, *entry->graph);
    s.rec->entries.insert(s.rec->entries.begin(), std::move(entry));
    reportCompile(s, end == End::Break ? "break" : "ok", "");
}

} // namespace kiln::capture
