// SPDX-License-Identifier: MIT
#include "inductor/eager_device_ops.h"

#include "inductor/compiled_graph.h"
#include "inductor/eager_device_closeness.h"
#include "inductor/eager_device_writes.h"
#include "inductor/eager_result_dtype.h"
#include "inductor/pipeline.h"
#include "lang/device_ops.h"
#include "lang/objects.h"
#include "lang/types.h"
#include "runtime/cuda_tensor.h"
#include "tensor/device_check.h"
#include "tensor/device_transfer.h"

#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>

namespace kiln::inductor {

namespace {

using lang::DeviceOpCall;
using lang::Value;
using tensor::Tensor;

/// One op call as a graph, with the tensors it reads in placeholder order.
struct SingleOpGraph {
    std::shared_ptr<graph::Graph> graph;
    std::vector<Value> inputs;
    std::string key;       ///< the signature the compiled graph is cached under
    std::string signature; ///< readable: "linear(bf16[8, 64], bf16[32, 64], None)"
};

class GraphBuilder {
public:
    explicit GraphBuilder(lang::Interpreter& interp)
        : m_interp(interp) {
        m_g.graph = std::make_shared<graph::Graph>();
    }

    graph::Arg arg(const Value& v) {
        if (v.isTensor()) {
            int32_t index = placeholder(v.asTensor(), v);
            readable(m_g.graph->nodes[static_cast<size_t>(index)].meta.shortType());
            return graph::Arg::ofNode(index);
        }
        if (v.is(lang::ObjectKind::List) || v.is(lang::ObjectKind::Tuple)) {
            bool list = v.is(lang::ObjectKind::List);
            const auto& items =
                list ? v.as<lang::ListObject>()->items : v.as<lang::TupleObject>()->items;
            std::vector<graph::Arg> args;
            m_g.key += list ? "[" : "(";
            for (const Value& item : items)
                args.push_back(arg(item));
            m_g.key += list ? "]" : ")";
            return graph::Arg::ofSequence(list ? graph::Arg::Kind::List : graph::Arg::Kind::Tuple,
                                          std::move(args));
        }
        m_g.key += m_interp.repr(v) + ",";
        readable(m_interp.repr(v));
        return graph::Arg::ofConstant(v);
    }

    /// The next argument is the keyword argument `name`.
    void keyword(const std::string& name) {
        m_g.key += "|" + name + "=";
        m_keyword = name + "=";
    }

    SingleOpGraph finish(const DeviceOpCall& call, std::vector<graph::Arg> args,
                         std::vector<std::pair<std::string, graph::Arg>> kwargs) {
        graph::Node node;
        node.name = "op";
        node.args = std::move(args);
        node.kwargs = std::move(kwargs);
        node.meta.kind = graph::ValueMeta::Kind::Tensor;
        node.meta.device = "cuda:0";
        node.meta.dtype = eagerResultDtype(m_interp, call);
        switch (call.form) {
        case DeviceOpCall::Form::Function:
            node.op = graph::NodeOp::CallFunction;
            node.target = "torch." + std::string(call.name);
            break;
        case DeviceOpCall::Form::Method:
            node.op = graph::NodeOp::CallMethod;
            node.target = std::string(call.name);
            break;
        case DeviceOpCall::Form::Binary:
        case DeviceOpCall::Form::Compare:
        case DeviceOpCall::Form::Unary:
            node.op = graph::NodeOp::CallFunction;
            node.operatorKind =
                call.form == DeviceOpCall::Form::Binary    ? graph::OperatorKind::Binary
                : call.form == DeviceOpCall::Form::Compare ? graph::OperatorKind::Compare
                                                           : graph::OperatorKind::Unary;
            node.operatorCode = call.operatorCode;
            node.target = "operator " + std::string(call.name);
            break;
        }
        int32_t index = m_g.graph->add(std::move(node));
        graph::Node output;
        output.op = graph::NodeOp::Output;
        output.name = "output";
        output.target = "output";
        output.args.push_back(
            graph::Arg::ofSequence(graph::Arg::Kind::Tuple, {graph::Arg::ofNode(index)}));
        m_g.graph->add(std::move(output));
        m_g.key = std::to_string(static_cast<int>(call.form)) + ":" + std::string(call.name) + ":" +
                  std::to_string(call.operatorCode) + ":" + m_g.key;
        m_g.signature = std::string(call.name) + "(";
        for (size_t i = 0; i < m_readable.size(); ++i)
            m_g.signature += (i ? ", " : "") + m_readable[i];
        m_g.signature += ")";
        return std::move(m_g);
    }

private:
    void readable(const std::string& text) {
        m_readable.push_back(m_keyword + text);
        m_keyword.clear();
    }

    int32_t placeholder(const Tensor& t, const Value& v) {
        graph::Node p;
        p.op = graph::NodeOp::Placeholder;
        p.name = "arg" + std::to_string(m_g.inputs.size());
        p.target = p.name;
        p.sourceName = "L['" + p.name + "']";
        p.meta.kind = graph::ValueMeta::Kind::Tensor;
        p.meta.dtype = t.dtype();
        p.meta.device = t.device().isCuda() ? "cuda:0" : "cpu";
        m_g.key += "T" + std::string(tensor::dtypeName(t.dtype())) + p.meta.device + "[";
        for (int64_t d = 0; d < t.dim(); ++d) {
            p.meta.sizes.push_back(graph::Dim{t.size(d), {}});
            p.meta.strides.push_back(t.stride(d));
            m_g.key += std::to_string(t.size(d)) + ":" + std::to_string(t.stride(d)) + ",";
        }
        m_g.key += "],";
        m_g.inputs.push_back(v);
        return m_g.graph->add(std::move(p));
    }

    lang::Interpreter& m_interp;
    SingleOpGraph m_g;
    std::vector<std::string> m_readable; ///< the top-level and nested arguments, in order
    std::string m_keyword;
};

SingleOpGraph buildGraph(lang::Interpreter& interp, const DeviceOpCall& call) {
    GraphBuilder b(interp);
    std::vector<graph::Arg> args;
    for (const Value& v : call.args.positional)
        args.push_back(b.arg(v));
    std::vector<std::pair<std::string, graph::Arg>> kwargs;
    for (size_t i = 0; i < call.args.keywordNames.size(); ++i) {
        std::string name(call.args.keywordNames[i].str());
        b.keyword(name);
        kwargs.emplace_back(name, b.arg(call.args.keywordValues[i]));
    }
    return b.finish(call, std::move(args), std::move(kwargs));
}

/// A compiled signature, or why the op has no GPU kernel.
struct Entry {
    std::shared_ptr<CompiledGraph> compiled;
    std::string refusal;
};

/// What the pipeline, stopped before NVRTC, says of a signature's result: when it is one fresh
/// contiguous tensor of static sizes, capture can have it without compiling the kernel.
struct Plan {
    bool deferrable = false;
    tensor::DimVector sizes;
    tensor::DType dtype = tensor::DType::Float32;
};

struct Cache {
    std::mutex mutex;
    std::map<std::string, Entry> entries;
    std::map<std::string, Plan> plans;
    std::atomic<long> compiles{0};
    NullEventSink sink;
    OptionValues options{inductorOptionRegistry()};
};

Cache& cache() {
    static Cache c;
    return c;
}

Entry compile(lang::Interpreter& interp, const SingleOpGraph& g) {
    Cache& c = cache();
    Logger logger(c.sink);
    // An eager op's result is its own tensor, never a view of an operand (clone, contiguous).
    PipelineContext context{interp, c.options, logger, "eager", g.inputs, c.sink, true};
    Expected<PipelineResult> result = runPipeline(context, g.graph);
    ++c.compiles;
    if (!result) return {nullptr, result.error().message};
    if (!result->artifacts) return {nullptr, result->refusal};
    // A fallback would run this same op eagerly again: no kernel for it on the GPU.
    for (const compiler::ScheduledKernel& k : result->artifacts->schedule.kernels)
        if (k.kind == compiler::ScheduledKernel::Kind::Fallback)
            return {nullptr, "Kiln's compiler has no decomposition for " + g.signature};
    if (!result->artifacts->onCuda) return {nullptr, "its graph is not on the GPU"};
    return {std::make_shared<CompiledGraph>(result->artifacts, nullptr, nullptr, "eager"), {}};
}

Entry compiledEntry(lang::Interpreter& interp, const SingleOpGraph& g) {
    Cache& c = cache();
    {
        std::lock_guard lock(c.mutex);
        auto it = c.entries.find(g.key);
        if (it != c.entries.end()) return it->second;
    }
    Entry entry = compile(interp, g);
    std::lock_guard lock(c.mutex);
    c.entries[g.key] = entry;
    return entry;
}

[[noreturn]] void failNoKernel(const DeviceOpCall& call, const std::string& refusal) {
    tensor::failNoDeviceKernel(
        (call.form == DeviceOpCall::Form::Function || call.form == DeviceOpCall::Form::Method
             ? "aten::"
             : "operator ") +
            std::string(call.name),
        tensor::Device{tensor::DeviceType::CUDA, 0}, refusal);
}

bool drawsRandom(const compiler::Scalar& s) {
    if (!s) return false;
    if (s->op == compiler::ScalarOp::RandUniform) return true;
    for (const compiler::Scalar& o : s->operands)
        if (drawsRandom(o)) return true;
    return false;
}

Plan plan(lang::Interpreter& interp, const SingleOpGraph& g) {
    Cache& c = cache();
    Logger logger(c.sink);
    PipelineContext context{interp, c.options, logger, "eager", g.inputs, c.sink, true};
    context.planOnly = true;
    Expected<PipelineResult> result = runPipeline(context, g.graph);
    // Refusals and failures are the compile's to report: the op then runs the usual way.
    if (!result || !result->artifacts || !result->artifacts->onCuda) return {};
    const GraphArtifacts& a = *result->artifacts;
    const compiler::LoopProgram& p = a.lowered.program;
    for (const compiler::ScheduledKernel& k : a.schedule.kernels)
        if (k.kind == compiler::ScheduledKernel::Kind::Fallback) return {};
    if (a.lowered.outputs.size() != 1 || !p.symbolNames.empty()) return {};
    // A random op draws when it runs: later, the generator would be somewhere else.
    for (const compiler::LoopNode& n : p.nodes)
        if (drawsRandom(n.body)) return {};
    const compiler::BufferView& v = a.lowered.outputs[0];
    const compiler::Buffer& b = p.buffer(v.buffer);
    if (b.origin == compiler::Buffer::Origin::Input) return {};
    Plan out;
    for (const compiler::Index& e : v.sizes)
        out.sizes.push_back(compiler::evaluate(e, {}, {}));
    tensor::DimVector strides;
    for (const compiler::Index& e : v.strides)
        strides.push_back(compiler::evaluate(e, {}, {}));
    if (compiler::evaluate(v.offset, {}, {}) != 0 ||
        strides != tensor::contiguousStrides(out.sizes))
        return {};
    out.dtype = b.dtype;
    out.deferrable = true;
    return out;
}

struct OperandLayout {
    Ref<tensor::Storage> storage;
    int64_t offset;
    tensor::DimVector sizes, strides;
    tensor::DType dtype;
};

/// Shadow execution during capture: only the result's metadata is certain to be needed (the
/// compiled graph's results replace it at the end), so an op whose kernel is not compiled yet
/// returns an unfilled tensor whose storage fills itself (compiling and launching the kernel)
/// if anything asks for its memory first. KILN_DEFER_CAPTURED_GPU_OPS=0 turns this off.
std::optional<Value> deferDuringCapture(lang::Interpreter& interp, const DeviceOpCall& call,
                                        const SingleOpGraph& g) {
    static const bool enabled = [] {
        const char* env = std::getenv("KILN_DEFER_CAPTURED_GPU_OPS");
        return !(env && std::string(env) == "0");
    }();
    if (!enabled || !interp.computingShadows()) return std::nullopt;
    // Only device operands: device writes run pending fills first, host writes do not.
    for (const Value& v : g.inputs)
        if (!v.isTensor() || !v.asTensor().device().isCuda()) return std::nullopt;
    Cache& c = cache();
    std::optional<Plan> known;
    {
        std::lock_guard lock(c.mutex);
        if (c.entries.count(g.key)) return std::nullopt; // compiled: just launch it
        if (auto it = c.plans.find(g.key); it != c.plans.end()) known = it->second;
    }
    if (!known) {
        known = plan(interp, g);
        std::lock_guard lock(c.mutex);
        c.plans[g.key] = *known;
    }
    const Plan p = *known;
    if (!p.deferrable) return std::nullopt;
    Tensor out = runtime::emptyCuda(p.sizes, p.dtype);
    lang::Interpreter* in = &interp;
    // The fill keeps the operands' storages, not their tensors: capture tells the values that
    // leave the frame by who else holds their tensors, and a fill is nobody.
    auto layouts = std::make_shared<std::vector<OperandLayout>>();
    for (const Value& v : g.inputs) {
        const Tensor& t = v.asTensor();
        layouts->push_back({t.storage(), t.offset(), t.sizes(), t.strides(), t.dtype()});
    }
    SingleOpGraph op{g.graph, {}, g.key, g.signature};
    out.storage()->setPendingFill([in, op, layouts, p, call](tensor::Storage& storage) {
        SingleOpGraph g = op;
        for (const OperandLayout& l : *layouts)
            g.inputs.push_back(
                Value(Tensor::view(l.storage, l.offset, l.sizes, l.strides, l.dtype)));
        Entry entry = compiledEntry(*in, g);
        if (!entry.compiled) failNoKernel(call, entry.refusal);
        Value result = entry.compiled->run(*in, g.inputs).as<lang::TupleObject>()->items.at(0);
        Tensor filled = Tensor::view(Ref<tensor::Storage>(&storage), 0, p.sizes,
                                     tensor::contiguousStrides(p.sizes), p.dtype);
        tensor::overwriteWith(filled, result.asTensor());
    });
    return Value(out);
}

/// a += b and Tensor.add_: the result written into the first operand.
Value runDeviceOp(lang::Interpreter& interp, const DeviceOpCall& original) {
    if (std::optional<Value> written = runDeviceWrite(interp, original)) return *written;
    if (std::optional<Value> close = runDeviceCloseness(interp, original)) return *close;
    DeviceOpCall call = original;
    bool inPlace = call.inPlace;
    std::string base;
    if (call.form == DeviceOpCall::Form::Method && call.name.size() > 1 &&
        call.name.back() == '_' && call.name[call.name.size() - 2] != '_') {
        base = std::string(call.name.substr(0, call.name.size() - 1)); // add_ -> add
        call.name = base;
        inPlace = true;
    }
    SingleOpGraph g = buildGraph(interp, call);
    if (!inPlace)
        if (std::optional<Value> deferred = deferDuringCapture(interp, original, g))
            return *deferred;
    Entry entry = compiledEntry(interp, g);
    if (!entry.compiled) failNoKernel(original, entry.refusal);
    Value out = entry.compiled->run(interp, g.inputs);
    Value result = out.as<lang::TupleObject>()->items.at(0);
    if (inPlace && !call.args.positional.empty() && call.args.positional[0].isTensor())
        return writeResultInto(interp, call.args.positional[0], result);
    return result;
}

} // namespace

void installEagerDeviceOps() {
    lang::setDeviceOpHandler(runDeviceOp);
}

long eagerDeviceCompileCount() {
    return cache().compiles.load();
}

} // namespace kiln::inductor
