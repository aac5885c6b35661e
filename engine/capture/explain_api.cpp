// SPDX-License-Identifier: MIT
// torch._dynamo.explain(fn)(*args): runs fn compiled, collecting its graphs, breaks and guards
// into an ExplainOutput (torch/_dynamo/eval_frame.py holds the Python classes).
#include "capture/compile_api.h"
#include "graph/graph_module.h"

#include <iomanip>
#include <sstream>

namespace kiln::capture {

using namespace kiln::lang;

namespace {

CaptureEngine& engineOf(void* data) {
    return *static_cast<CaptureEngine*>(data);
}

Value pyClass(Interpreter& interp, const char* name) {
    Ref<ModuleObject> m = interp.importModule("torch._dynamo.eval_frame");
    const Value* cls = m->globals.find(Symbol::intern(name));
    KILN_ASSERT(cls, "torch._dynamo.eval_frame lacks an explain class");
    return *cls;
}

Value breakReasons(Interpreter& interp, const ExplainRecord& record) {
    Value frameSummary = pyClass(interp, "FrameSummary");
    Value compileReason = pyClass(interp, "GraphCompileReason");
    std::vector<Value> reasons;
    for (const BreakReason& r : record.breaks) {
        std::vector<Value> stack;
        for (const UserFrame& f : r.stack)
            stack.push_back(interp.call(frameSummary, {strValue(f.file), Value::fromInt(f.line),
                                                       strValue(f.function), strValue(f.code)}));
        reasons.push_back(interp.call(compileReason, {strValue(r.text), listValue(stack)}));
    }
    return listValue(std::move(reasons));
}

Value opsPerGraph(Interpreter& interp, const ExplainRecord& record, int64_t& opCount) {
    std::vector<Value> perGraph;
    for (const auto& info : record.graphs) {
        std::vector<Value> ops;
        for (const graph::Node& n : info.graph->nodes) {
            if (n.op != graph::NodeOp::CallFunction) continue;
            ops.push_back(n.operatorKind != graph::OperatorKind::None
                              ? graph::operatorFunction(interp, n)
                              : n.callable);
            ++opCount;
        }
        perGraph.push_back(listValue(std::move(ops)));
    }
    return listValue(std::move(perGraph));
}

Value outGuards(Interpreter& interp, const ExplainRecord& record) {
    Value guardClass = pyClass(interp, "Guard");
    std::vector<Value> guards;
    for (const GuardEvent& g : record.guards) {
        const bool global = g.kind == "GLOBAL_STATE" || g.source.rfind("G[", 0) == 0;
        // Dynamo names the grad-mode part of the global state GRAD_MODE.
        const std::string kind = g.kind == "GLOBAL_STATE" ? "GRAD_MODE" : g.kind;
        guards.push_back(
            interp.call(guardClass, {strValue(g.source), strValue(global ? "global" : "local"),
                                     strValue(kind), listValue({strValue(g.expression)})}));
    }
    return listValue(std::move(guards));
}

std::string compileTimes(const ExplainRecord& record) {
    std::ostringstream out;
    out << "TorchDynamo compilation metrics:\nFunction, Runtimes (s)\n_compile.compile_inner";
    const char* sep = ", ";
    for (const auto& [fn, seconds] : record.compileTimes)
        out << sep << std::fixed << std::setprecision(4) << seconds;
    return out.str();
}

Value explainOutput(Interpreter& interp, const ExplainRecord& record) {
    int64_t opCount = 0;
    Value ops = opsPerGraph(interp, record, opCount);
    std::vector<Value> graphs;
    for (const auto& info : record.graphs)
        graphs.push_back(info.module);
    const auto graphCount = static_cast<int64_t>(graphs.size());
    return interp.call(pyClass(interp, "ExplainOutput"),
                       {listValue(std::move(graphs)), Value::fromInt(graphCount),
                        Value::fromInt(std::max<int64_t>(0, graphCount - 1)),
                        breakReasons(interp, record), Value::fromInt(opCount), ops,
                        outGuards(interp, record), strValue(compileTimes(record))});
}

/// explain(fn)(*args, **kwargs): `bound` is fn.
Value explainInner(Interpreter& interp, const CallArgs& args, void* data) {
    CaptureEngine& engine = engineOf(data);
    CallArgs rest{args.positional.subspan(1), args.keywordNames, args.keywordValues};
    engine.reset();
    ExplainRecord record;
    engine.setExplainRecord(&record);
    struct Detach {
        CaptureEngine& engine;
        ~Detach() { engine.setExplainRecord(nullptr); }
    } detach{engine};
    CompileSpec spec;
    spec.backend.kind = Backend::Kind::Eager;
    spec.backend.name = "eager";
    engine.callCompiled(spec, args.positional[0], rest);
    return explainOutput(interp, record);
}

Value explain(Interpreter& interp, const CallArgs& args, void* data) {
    if (args.positional.empty())
        interp.raiseTypeError("explain() missing 1 required positional argument: 'f'");
    auto inner = makeRef<NativeFunctionObject>("inner", explainInner, data);
    inner->bound = args.positional[0];
    if (args.positional.size() == 1 && args.keywordNames.empty()) return Value(inner);
    // The deprecated explain(f, *args, **kwargs) form runs at once.
    interp.write(OutputStream::Stderr,
                 "UserWarning: explain(f, *args, **kwargs) is deprecated, use explain(f)(*args, "
                 "**kwargs) instead.  If you don't migrate, we may break your explain call in "
                 "the future if your user defined kwargs conflict with future kwargs added to "
                 "explain(f).\n");
    return interp.call(Value(inner),
                       CallArgs{args.positional.subspan(1), args.keywordNames, args.keywordValues});
}

} // namespace

void installExplainApi(Interpreter& interp, CaptureEngine& engine, ModuleObject& dynamo) {
    interp.defineNative(dynamo.globals, "explain", explain, &engine);
}

} // namespace kiln::capture
