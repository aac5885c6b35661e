// SPDX-License-Identifier: MIT
// Handing a traced graph to its backend, and reporting what a compile produced (events, logs,
// explain facts, and the Unsupported errors of fullgraph=True).
#include "capture/capture_session.h"
#include "capture/dynamo_errors.h"
#include "graph/codegen.h"
#include "graph/graph_module.h"
#include "support/clock.h"

namespace kiln::capture {

using lang::CallArgs;
using lang::Value;

namespace {

/// debug_dir_root when the script (or TORCH_COMPILE_DEBUG_DIR) set it; empty for the default, so
/// that debug traces go to the directory the host chose (support/debug_sandbox.h).
std::string scriptDebugDirRoot(const OptionValues& dynamo) {
    if (dynamo.source("debug_dir_root") == OptionSource::Default) return {};
    return dynamo.text("debug_dir_root").value_or("");
}

/// Turns the hook off for a scope: backends and compiled graphs run as plain Python, as Dynamo
/// wraps them in torch._dynamo.disable.
class HookOff {
public:
    explicit HookOff(lang::Interpreter& interp)
        : m_interp(interp)
        , m_wasActive(interp.frameHookActive()) {
        m_interp.setFrameHookActive(false);
    }
    ~HookOff() { m_interp.setFrameHookActive(m_wasActive); }
    HookOff(const HookOff&) = delete;
    HookOff& operator=(const HookOff&) = delete;

private:
    lang::Interpreter& m_interp;
    bool m_wasActive;
};

std::string backendFunctionName(lang::Interpreter& interp, const Backend& b) {
    if (b.kind != Backend::Kind::Custom) return b.name;
    Value name = interp.tryGetAttr(b.callable, lang::Symbol::intern("__name__"));
    return name.is(lang::ObjectKind::Str) ? name.as<lang::StrObject>()->str() : b.name;
}

/// "(sin, 2), {'alpha': 1}" as fx's node printer shows a node's arguments.
std::string argsText(const graph::Graph& g, const graph::Node& n,
                     const graph::ConstantPrinter& printConstant) {
    graph::Arg args = graph::Arg::ofSequence(graph::Arg::Kind::Tuple, n.args);
    std::string text = graph::argText(g, args, printConstant);
    if (n.kwargs.empty()) return text;
    text += ", {";
    for (size_t i = 0; i < n.kwargs.size(); ++i)
        text += (i ? ", '" : "'") + n.kwargs[i].first +
                "': " + graph::argText(g, n.kwargs[i].second, printConstant);
    return text + "}";
}

} // namespace

std::vector<Value> CaptureEngine::callGraphDisabled(const Value& compiled,
                                                    const std::vector<Value>& inputs,
                                                    size_t outputCount) {
    HookOff off(m_interp);
    Value result = m_interp.call(compiled, CallArgs{inputs, {}, {}});
    return graphOutputs(m_interp, result, outputCount);
}

Value CaptureEngine::runBackend(Session& s, const Value& gm, const std::vector<Value>& inputs) {
    const Backend& b = s.spec->backend;
    switch (b.kind) {
    case Backend::Kind::Eager:
    case Backend::Kind::AotEager:
        return gm;
    case Backend::Kind::Inductor:
        if (m_inductor) {
            InductorRequest request{m_interp,
                                    s.graph,
                                    inputs,
                                    s.compile.compileId,
                                    m_graphCount,
                                    applyPatch(m_config.inductor(), s.spec->inductorPatch),
                                    scriptDebugDirRoot(m_config.dynamo()),
                                    m_logger,
                                    m_sink};
            HookOff off(m_interp);
            InductorResult result = m_inductor(request);
            s.afterGraphReported = std::move(result.afterGraphReported);
            return result.callable;
        }
        KILN_TORCH_LOG(m_logger, LogLevel::Info, "torch._inductor.compile_fx", s.compile.compileId,
                       "Kiln's inductor backend runs this graph through the eager kernels (its "
                       "code generator is not built yet)");
        return gm;
    case Backend::Kind::CudaGraphs:
        m_interp.raise(lang::builtinTypes().runtimeError.get(),
                       "the cudagraphs backend needs a CUDA device, and this run has none");
    case Backend::Kind::Custom:
        break;
    }
    HookOff off(m_interp);
    Value result = m_interp.call(b.callable, {gm, lang::listValue(inputs)});
    if (!m_interp.isCallable(result))
        m_interp.raiseTypeError("backend returned " + m_interp.typeName(result) +
                                ", expected a callable");
    return result;
}

Value CaptureEngine::compileGraph(Session& s, const std::shared_ptr<graph::Graph>& g,
                                  const std::vector<Value>& exampleInputs, bool& failed) {
    failed = false;
    s.graph = g;
    Value gm = graph::makeGraphModule(m_interp, g);
    if (m_explain) m_explain->graphs.push_back({g, gm});
    KILN_TORCH_LOG(m_logger, LogLevel::Info, "torch._dynamo.output_graph", s.compile.compileId,
                   "Step 2: calling compiler function " + s.spec->backend.name);
    try {
        Value compiled = runBackend(s, gm, exampleInputs);
        KILN_TORCH_LOG(m_logger, LogLevel::Info, "torch._dynamo.output_graph", s.compile.compileId,
                       "Step 2: done compiler function " + s.spec->backend.name);
        return compiled;
    } catch (const lang::PyException& e) {
        std::string cause = lang::formatExceptionOnly(m_interp, e.exception);
        while (!cause.empty() && cause.back() == '\n')
            cause.pop_back();
        std::string message =
            "backend='" + backendFunctionName(m_interp, s.spec->backend) + "' raised:\n" + cause;
        if (!m_config.dynamo().flag("suppress_errors")) {
            s.tracer->undoInPlaceChanges();
            reportCompile(s, "failed", message);
            raiseDynamoError(m_interp, "BackendCompilerFailed",
                             message +
                                 "\n\nSet TORCH_LOGS=\"+dynamo\" and TORCHDYNAMO_VERBOSE=1 "
                                 "for more information\n" +
                                 suppressHint());
        }
        KILN_TORCH_LOG(m_logger, LogLevel::Warning, "torch._dynamo.convert_frame",
                       s.compile.compileId,
                       "WON'T CONVERT " + s.rec->name + " " + s.rec->file + " line " +
                           std::to_string(s.rec->firstLine) + " \ndue to: \n" +
                           "torch._dynamo.exc.BackendCompilerFailed: " + message);
        failed = true;
        return Value();
    }
}

// --- reports

void CaptureEngine::reportCompile(Session& s, const std::string& status,
                                  const std::string& failure) {
    s.compile.status = status;
    s.compile.failure = failure;
    s.compile.durationNs = monotonicNs() - s.compile.startNs;
    m_sink.compile(s.compile);
    TimelineEvent span;
    span.category = "compile";
    span.name = s.rec->name;
    span.compileId = s.compile.compileId;
    span.startNs = s.compile.startNs;
    span.durationNs = s.compile.durationNs;
    span.detailJson = "{\"status\": \"" + status + "\"}";
    m_sink.timeline(span);
    if (m_explain)
        m_explain->compileTimes.emplace_back(s.rec->name,
                                             static_cast<double>(s.compile.durationNs) * 1e-9);
}

void CaptureEngine::reportConfig(Session& s) {
    std::vector<ConfigEvent> events = configEvents(m_config.dynamo());
    if (s.spec->backend.kind == Backend::Kind::Inductor)
        for (ConfigEvent& e : configEvents(applyPatch(m_config.inductor(), s.spec->inductorPatch)))
            events.push_back(std::move(e));
    std::string fingerprint;
    for (const ConfigEvent& e : events)
        fingerprint += e.key + '=' + e.value + '@' + e.source + '\n';
    if (fingerprint == m_configFingerprint)
        return; // the config table keeps one row per key: report only what changed
    m_configFingerprint = std::move(fingerprint);
    for (const ConfigEvent& e : events)
        m_sink.config(e);
}

GuardEvent CaptureEngine::guardEvent(Session& s, const Guard& g) {
    GuardEvent ev;
    ev.compileId = s.compile.compileId;
    ev.kind = g.kindName();
    if (g.kind() != Guard::Kind::GlobalState && g.kind() != Guard::Kind::BackendMatch)
        ev.source = g.source()->str();
    ev.expression = g.expression(m_interp);
    ev.expected = g.expectedText(m_interp);
    ev.userLine = g.origin.line;
    return ev;
}

void CaptureEngine::reportGuards(Session& s, const GuardSet& guards,
                                 const std::vector<Guard>& notInstalled) {
    std::string dump = "GUARDS:";
    for (const Guard& g : guards.guards) {
        GuardEvent ev = guardEvent(s, g);
        m_sink.guard(ev);
        dump += "\n" + ev.expression;
        if (m_explain) m_explain->guards.push_back(ev);
    }
    // Recorded for the views, left out of the guard dump and explain(), as PyTorch leaves them.
    for (const Guard& g : notInstalled) {
        GuardEvent ev = guardEvent(s, g);
        ev.installed = false;
        m_sink.guard(ev);
    }
    KILN_TORCH_ARTIFACT(m_logger, Artifact::Guards, s.compile.compileId, dump);
}

void CaptureEngine::reportGraph(Session& s, const graph::Graph& g) {
    lang::Interpreter::FrameHookPause pause(m_interp); // constants' reprs are not frames
    auto printConstant = [this](const Value& v) { return m_interp.repr(v); };
    GraphEvent ev;
    ev.compileId = s.compile.compileId;
    ev.graphIndex = m_graphCount++;
    ev.readableCode = graph::readableCode(g, printConstant);
    ev.nodeCount = static_cast<int32_t>(g.nodes.size());
    ev.opCount = g.callCount();
    for (const graph::Node& n : g.nodes) {
        GraphNodeInfo info;
        info.name = n.name;
        info.op = graph::nodeOpName(n.op);
        info.target = n.target;
        info.shape = n.meta.kind == graph::ValueMeta::Kind::Tensor ? n.meta.shapeString() : "";
        info.dtype = n.meta.kind == graph::ValueMeta::Kind::Tensor
                         ? "torch." + std::string(tensor::dtypeName(n.meta.dtype))
                         : "";
        info.args = argsText(g, n, printConstant);
        info.sourceLine = n.span.begin.line;
        if (n.op == graph::NodeOp::CallModule && !n.callable.isEmpty()) {
            info.modulePath = n.modulePath;
            info.moduleType = m_interp.typeName(n.callable);
        }
        ev.nodes.push_back(std::move(info));
    }
    m_sink.graph(ev);
    if (s.afterGraphReported) {
        auto report = std::move(s.afterGraphReported);
        s.afterGraphReported = nullptr;
        report();
    }
    KILN_TORCH_ARTIFACT(m_logger, Artifact::GraphCode, s.compile.compileId,
                        "TRACED GRAPH\n ===== __compiled_fn_" + std::to_string(ev.graphIndex) +
                            " =====\n" + ev.readableCode);
}

void CaptureEngine::reportBreak(Session& s, const BreakReason& original) {
    // In a resume point the traced frame is Dynamo's resume function: name it so.
    BreakReason reason = original;
    if (s.rec->key.resumeAfter && !reason.stack.empty())
        reason.stack.front().function = s.rec->name;
    GraphBreakEvent ev;
    ev.compileId = s.compile.compileId;
    ev.order = ++m_breakOrder;
    if (!reason.stack.empty()) {
        ev.file = reason.stack.back().file;
        ev.line = reason.stack.back().line;
        ev.column = reason.stack.back().column;
    }
    ev.reasonKind = breakKindName(reason.kind);
    ev.reason = reason.text;
    ev.userStack = formatUserStack(reason.stack);
    m_sink.graphBreak(ev);
    if (m_explain) {
        m_explain->breaks.push_back(reason);
        return; // explain() suppresses the graph_breaks log, as PyTorch's does
    }
    if (!m_loggedBreaks.insert({ev.file, ev.line}).second)
        return; // PyTorch logs a break at the same place once
    KILN_TORCH_ARTIFACT(m_logger, Artifact::GraphBreaks, s.compile.compileId,
                        "Graph break: from user code at:\n" + ev.userStack +
                            "torch._dynamo.exc.Unsupported: " + reason.text);
}

void CaptureEngine::raiseUnsupported(const BreakReason& reason) {
    const bool dataDependent = reason.kind == BreakKind::DataDependent;
    std::string message =
        dataDependent ? "Dynamic control flow is not supported at the moment. Please use "
                        "functorch.experimental.control_flow.cond to explicitly capture the "
                        "control flow. For more information about this error, see: "
                        "https://pytorch.org/docs/main/generated/exportdb/index.html#cond-operands"
                      : reason.text;
    message += "\n\nfrom user code:\n" + formatUserStack(reason.stack) +
               "\nSet TORCH_LOGS=\"+dynamo\" and TORCHDYNAMO_VERBOSE=1 for more information\n" +
               suppressHint();
    raiseDynamoError(m_interp, dataDependent ? "UserError" : "Unsupported", message);
}

} // namespace kiln::capture
