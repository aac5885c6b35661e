// SPDX-License-Identifier: MIT
#include "inductor/compiled_graph.h"

#include "graph/executor.h"
#include "inductor/compiled_backward.h"
#include "inductor/cuda_attention.h"
#include "inductor/cuda_matmul.h"
#include "inductor/gpu_profiler.h"
#include "inductor/graph_mutations.h"
#include "lang/objects.h"
#include "lang/tensor_bridge.h"
#include "lang/types.h"
#include "runtime/cuda_memory.h"
#include "runtime/cuda_tensor.h"
#include "support/clock.h"
#include "support/parallel.h"
#include "tensor/autograd.h"
#include "tensor/conv.h"
#include "tensor/convert.h"
#include "tensor/error.h"
#include "tensor/grad_node.h"
#include "tensor/ops.h"

#include <cstring>

namespace kiln::inductor {

namespace {

using compiler::Buffer;
using compiler::Index;
using compiler::LoopNode;
using lang::Value;
using tensor::Tensor;

tensor::DimVector evaluateAll(const std::vector<Index>& e, std::span<const int64_t> syms) {
    tensor::DimVector out;
    for (const Index& i : e)
        out.push_back(compiler::evaluate(i, {}, syms));
    return out;
}

const tensor::Device kCuda0{tensor::DeviceType::CUDA, 0};

std::string listText(const tensor::DimVector& v) {
    std::string s = "(";
    for (size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + (v.size() == 1 ? ",)" : ")");
}

class Run {
public:
    Run(std::shared_ptr<const GraphArtifacts> a, lang::Interpreter& interp,
        std::span<const Value> inputs, EventSink* sink, Logger* logger,
        const std::string& compileId)
        : m_artifacts(std::move(a))
        , m_logger(logger)
        , m_compileId(compileId)
        , m_a(*m_artifacts)
        , m_p(m_a.lowered.program)
        , m_interp(interp)
        , m_inputs(inputs)
        , m_sink(sink)
        , m_bufs(m_p.buffers.size()) {}

    Value execute() {
        bindSymbols();
        bindInputs();
        int32_t status = m_p.statusBuffer;
        if (status >= 0) m_bufs[static_cast<size_t>(status)] = statusBuffer();
        for (size_t k = 0; k < m_a.schedule.kernels.size(); ++k)
            launch(k);
        // The GPU kernels' timings are read back later, outside the kernels.
        if (m_a.onCuda && m_sink) GpuProfiler::instance().callDone(*m_sink);
        // An embedding or gather position was out of range: eager raises, so the call does too.
        if (status >= 0 && hostCopy(m_bufs[static_cast<size_t>(status)]).data<int64_t>()[0] != 0)
            m_interp.raise(lang::builtinTypes().indexError.get(), "index out of range in self");
        return outputs();
    }

private:
    [[noreturn]] void fail(const std::string& message) {
        m_interp.raise(lang::builtinTypes().assertionError.get(), message);
    }

    /// A device failure while the graph runs (a launch, cuBLASLt): RuntimeError, as PyTorch.
    void check(const Status& s) {
        if (!s) m_interp.raise(lang::builtinTypes().runtimeError.get(), s.error().message);
    }

    Tensor statusBuffer() {
        if (!m_a.onCuda) return tensor::zeros(std::vector<int64_t>{1}, {tensor::DType::Int64});
        Tensor t = runtime::emptyCuda(std::vector<int64_t>{1}, tensor::DType::Int64);
        fillBytes(t, 0);
        return t;
    }

    static Tensor hostCopy(const Tensor& t) {
        return t.device().isCpu() ? t : runtime::toDevice(t, tensor::Device{});
    }

    void fillBytes(const Tensor& t, unsigned char value) {
        size_t bytes = static_cast<size_t>(t.numel() * tensor::itemSize(t.dtype()));
        if (!t.device().isCuda()) {
            std::memset(t.rawData(), value, bytes);
            return;
        }
        Expected<const runtime::CudaContext*> context = runtime::cudaContext(0);
        if (!context) check(context.error());
        check(runtime::fillDeviceBytes(**context, runtime::devicePointer(t), value, bytes));
    }

    void bindSymbols() {
        for (const auto& src : m_a.aten.symbolSources) {
            if (src.seed) { // random ops in the kernels: a fresh seed per call
                m_syms.push_back(compiler::drawRandomSeed());
                continue;
            }
            const Value& v = m_inputs[static_cast<size_t>(src.input)];
            if (src.dim < 0) {
                std::optional<int64_t> i = v.isIntLike() ? v.asInt() : lang::asIndex(m_interp, v);
                if (!i)
                    fail("compiled graph input " + std::to_string(src.input) + " is not an int");
                m_syms.push_back(*i);
            } else if (src.stride) {
                m_syms.push_back(v.asTensor().stride(src.dim));
            } else {
                m_syms.push_back(v.asTensor().size(src.dim));
            }
        }
    }

    Tensor inputTensor(const Buffer& b) {
        Tensor t;
        if (b.inputIndex >= m_a.aten.inputCount) {
            t = m_a.aten.constants[static_cast<size_t>(b.inputIndex - m_a.aten.inputCount)];
        } else {
            const Value& v = m_inputs[static_cast<size_t>(b.inputIndex)];
            if (!v.isTensor()) fail("compiled graph input " + b.name + " is not a tensor");
            t = v.asTensor();
        }
        // A GPU graph's host constants (and 0-dim host scalars) go along to the device.
        if (m_a.onCuda && !t.device().isCuda()) {
            if (b.inputIndex < m_a.aten.inputCount && t.dim() > 0)
                fail("expected " + b.name + " on cuda:0, got a tensor on " + t.device().str());
            t = runtime::toDevice(t, kCuda0);
        }
        return t;
    }

    void bindInputs() {
        for (const Buffer& b : m_p.buffers) {
            if (b.origin != Buffer::Origin::Input) continue;
            Tensor t = inputTensor(b);
            tensor::DimVector sizes = evaluateAll(b.sizes, m_syms);
            tensor::DimVector strides = evaluateAll(b.strides, m_syms);
            if (t.dtype() != b.dtype || t.sizes() != sizes)
                fail("wrong size or dtype for " + b.name + ": expected " + listText(sizes) +
                     ", got " + listText(t.sizes()));
            for (size_t d = 0; d < sizes.size(); ++d) {
                if (sizes[d] <= 1 || t.strides()[d] == strides[d]) continue;
                // size_asserts: fail as Inductor's assert_size_stride does; otherwise copy the
                // input into the layout the kernels index with.
                if (m_a.sizeAsserts)
                    fail("expected size " + std::to_string(t.sizes()[d]) + "==" +
                         std::to_string(sizes[d]) + ", stride " + std::to_string(t.strides()[d]) +
                         "==" + std::to_string(strides[d]) + " at dim=" + std::to_string(d));
                t = withStrides(t, strides);
                break;
            }
            m_bufs[static_cast<size_t>(b.id)] = t;
        }
    }

    static Tensor withStrides(const Tensor& t, const tensor::DimVector& strides) {
        // On the GPU through host memory: a relayout is rare (size_asserts off) and has no
        // device kernel of its own.
        if (t.device().isCuda())
            return runtime::toDevice(withStrides(hostCopy(t), strides), kCuda0);
        int64_t extent = 1;
        for (size_t d = 0; d < strides.size(); ++d)
            extent += (t.sizes()[d] - 1) * strides[d];
        Tensor storage = Tensor::empty(std::vector<int64_t>{extent}, t.dtype());
        Tensor out = Tensor::view(storage.storage(), 0, t.sizes(), strides, t.dtype());
        tensor::copyInto(out, t);
        return out;
    }

    Tensor& allocate(int32_t id) {
        Tensor& slot = m_bufs[static_cast<size_t>(id)];
        if (slot.defined()) return slot;
        const Buffer& b = m_p.buffer(id);
        int32_t owner = m_a.memory.storageOf[static_cast<size_t>(id)];
        tensor::DimVector sizes = evaluateAll(b.sizes, m_syms);
        if (owner != id && m_bufs[static_cast<size_t>(owner)].defined()) {
            const Tensor& from = m_bufs[static_cast<size_t>(owner)];
            slot =
                Tensor::view(from.storage(), 0, sizes, tensor::contiguousStrides(sizes), b.dtype);
        } else {
            slot = m_a.onCuda ? runtime::emptyCuda(sizes, b.dtype) : Tensor::empty(sizes, b.dtype);
        }
        if (m_a.poisonBuffers) fillBytes(slot, 0xff);
        return slot;
    }

    Tensor viewOf(const compiler::BufferView& v) {
        const Tensor& base = m_bufs[static_cast<size_t>(v.buffer)];
        return Tensor::view(
            base.storage(), base.offset() + compiler::evaluate(v.offset, {}, m_syms),
            evaluateAll(v.sizes, m_syms), evaluateAll(v.strides, m_syms), base.dtype());
    }

    void launch(size_t k) {
        const compiler::ScheduledKernel& kernel = m_a.schedule.kernels[k];
        const LoopNode& first = m_p.nodes[static_cast<size_t>(kernel.stages.front().node)];
        bool timed = m_sink || m_a.debug;
        int64_t start = timed ? monotonicNs() : 0;
        if (m_a.onCuda) {
            launchOnCuda(k, kernel, first);
            return;
        }
        if (kernel.kind == compiler::ScheduledKernel::Kind::Template)
            runTemplate(kernel, m_a.kernels[k].code);
        else if (kernel.compiled())
            runCompiled(kernel, m_a.kernels[k].code);
        else if (kernel.kind == compiler::ScheduledKernel::Kind::Extern)
            runExtern(first);
        else
            runFallback(first);
        if (m_a.debug && m_logger)
            KILN_TORCH_LOG(*m_logger, LogLevel::Debug, "torch._inductor.graph", m_compileId,
                           kernel.name + " ran in " +
                               std::to_string((monotonicNs() - start) / 1000) + " us");
        if (m_sink) {
            KernelLaunchEvent e;
            e.kernelId = m_a.kernels[k].kernelId;
            e.startNs = start;
            e.endNs = monotonicNs();
            e.grid = "threads=" + std::to_string(parallelThreads());
            m_sink->kernelLaunch(e);
        }
    }

    /// GPU launches are asynchronous; their timings come from the profiler after the call.
    void launchOnCuda(size_t k, const compiler::ScheduledKernel& kernel, const LoopNode& first) {
        GpuProfiler* profiler = m_sink ? &GpuProfiler::instance() : nullptr;
        int64_t id = m_a.kernels[k].kernelId;
        if (kernel.compiled()) {
            for (const compiler::KernelStage& s : kernel.stages)
                allocate(m_p.nodes[static_cast<size_t>(s.node)].output);
            check(launchCudaKernel(*m_a.kernels[k].cuda, m_bufs, m_syms, profiler, id));
        } else if (kernel.kind == compiler::ScheduledKernel::Kind::Extern) {
            std::vector<Tensor> in;
            for (const compiler::BufferView& v : first.operands)
                in.push_back(viewOf(v));
            Expected<Tensor> out =
                first.externName == "flash_attention"
                    ? cudaAttention(in, first.beta, static_cast<int>(first.alpha), profiler, id)
                    : cudaMatmul(first.externName, in, first.beta, first.alpha, profiler, id);
            if (!out) check(out.error());
            m_bufs[static_cast<size_t>(first.output)] = *out;
        } else {
            runFallback(first); // through the eager GPU ops
        }
        if (m_a.debug && m_logger)
            KILN_TORCH_LOG(*m_logger, LogLevel::Debug, "torch._inductor.graph", m_compileId,
                           kernel.name + " queued on the GPU");
    }

    void runCompiled(const compiler::ScheduledKernel& kernel, const codegen::CompiledKernel& code) {
        for (const compiler::KernelStage& s : kernel.stages)
            allocate(m_p.nodes[static_cast<size_t>(s.node)].output);
        std::vector<char*> pointers;
        for (int32_t id : code.bufferParams)
            pointers.push_back(m_bufs[static_cast<size_t>(id)].rawData());
        int64_t outer =
            kernel.outerRanges.empty() ? 1 : compiler::evaluate(kernel.outerRanges[0], {}, m_syms);
        // Work per outer iteration decides how many threads are worth waking.
        int64_t work = 1;
        for (size_t i = 1; i < kernel.outerRanges.size(); ++i)
            work *= compiler::evaluate(kernel.outerRanges[i], {}, m_syms);
        int64_t inner = 1;
        for (const compiler::KernelStage& s : kernel.stages)
            inner =
                std::max(inner, compiler::evaluate(compiler::product(s.innerRanges), {}, m_syms));
        work = std::max<int64_t>(1, work * inner);
        int64_t minChunk = std::max<int64_t>(1, 16384 / work);
        char** bufs = pointers.data();
        const int64_t* syms = m_syms.data();
        codegen::KernelEntry entry = code.entry;
        parallelFor(outer, minChunk, [&](int64_t b, int64_t e) { entry(bufs, syms, b, e); });
    }

    void runTemplate(const compiler::ScheduledKernel& kernel, const codegen::CompiledKernel& code) {
        const LoopNode& mm = m_p.nodes[static_cast<size_t>(kernel.stages[0].node)];
        int32_t out = kernel.stages.size() > 1
                          ? m_p.nodes[static_cast<size_t>(kernel.stages[1].node)].output
                          : mm.output;
        allocate(out);
        // The template reads B as contiguous rows: pack it when the view is not (x @ w.t()).
        Tensor b = viewOf(mm.operands.at(mm.externName == "addmm" ? 2 : 1));
        int64_t k = b.size(0), n = b.size(1);
        int64_t paddedN = (n + kernel.tileN - 1) / kernel.tileN * kernel.tileN;
        Tensor packed = b;
        if (paddedN != n) {
            // shape_padding: zero columns up to a whole tile.
            packed = tensor::zeros(std::vector<int64_t>{k, paddedN}, {b.dtype()});
            tensor::copyInto(Tensor::view(packed.storage(), 0, b.sizes(),
                                          tensor::DimVector{paddedN, 1}, b.dtype()),
                             b);
        } else if (!b.isContiguous()) {
            packed = tensor::contiguous(b);
        }
        std::vector<char*> pointers;
        for (size_t i = 0; i < code.bufferParams.size(); ++i)
            pointers.push_back(i == 1
                                   ? packed.rawData()
                                   : m_bufs[static_cast<size_t>(code.bufferParams[i])].rawData());
        char** bufs = pointers.data();
        const int64_t* syms = m_syms.data();
        codegen::KernelEntry entry = code.entry;
        int64_t blocks = compiler::evaluate(kernel.outerRanges.at(0), {}, m_syms);
        parallelFor(blocks, 1, [&](int64_t begin, int64_t end) { entry(bufs, syms, begin, end); });
    }

    void runExtern(const LoopNode& n) {
        std::vector<Tensor> in;
        for (const compiler::BufferView& v : n.operands)
            in.push_back(viewOf(v));
        Tensor out;
        if (n.externName == "flash_attention")
            tensor::failRuntime("flash_attention is an extern kernel of GPU graphs only");
        if (n.externName == "convolution")
            out = convolution(n, in);
        else if (n.externName.ends_with("_backward") ||
                 n.externName.starts_with("convolution_backward"))
            out = backwardExtern(n, in);
        else if (n.externName == "mm")
            out = tensor::mm(in[0], in[1]);
        else if (n.externName == "bmm")
            out = tensor::bmm(in[0], in[1]);
        else
            out = tensor::addmm(in[0], in[1], in[2], n.beta, n.alpha);
        m_bufs[static_cast<size_t>(n.output)] = out.isContiguous() ? out : tensor::contiguous(out);
    }

    static tensor::ConvParams convParams(const LoopNode& n) {
        const std::vector<int64_t>& v = n.externInts;
        return {{v.at(0), v.at(1)}, {v.at(2), v.at(3)}, {v.at(4), v.at(5)}, v.at(6)};
    }

    /// AOT autograd's backward ops that have no loop form (scatters, convolutions' gradients):
    /// the eager kernels, into the buffer of the node's sizes.
    Tensor backwardExtern(const LoopNode& n, const std::vector<Tensor>& in) {
        const Buffer& out = m_p.buffer(n.output);
        tensor::DimVector sizes = evaluateAll(out.sizes, m_syms);
        const Tensor& grad = in.at(0);
        if (n.externName == "convolution_backward_input")
            return tensor::conv2dInputGrad(grad, in.at(1), sizes, convParams(n));
        if (n.externName == "convolution_backward_weight")
            return tensor::conv2dWeightGrad(grad, in.at(1), sizes, convParams(n));
        Tensor zeros = tensor::zeros(sizes, {out.dtype, grad.device()});
        if (n.externName == "gather_backward")
            return tensor::scatter(zeros, -1, in.at(1), grad, tensor::ScatterReduce::Sum, true,
                                   "gather_backward");
        KILN_ASSERT(n.externName == "embedding_backward", n.externName.c_str());
        int64_t width = sizes[1];
        Tensor rows = tensor::reshape(
            grad, std::vector<int64_t>{grad.numel() / std::max<int64_t>(width, 1), width});
        Tensor indices = tensor::reshape(in.at(1), std::vector<int64_t>{in.at(1).numel()});
        int64_t padding = n.externInts.at(0);
        if (padding >= 0) {
            Tensor keep = tensor::binary(tensor::BinaryOp::Ne, indices,
                                         tensor::wrapNumber(tensor::Scalar(padding)));
            rows = tensor::binary(tensor::BinaryOp::Mul, rows,
                                  tensor::unsqueeze(tensor::toDType(keep, out.dtype), 1));
        }
        return tensor::indexAdd(zeros, 0, indices, rows, tensor::Scalar(int64_t(1)));
    }

    static Tensor convolution(const LoopNode& n, const std::vector<Tensor>& in) {
        tensor::ConvParams p = convParams(n);
        std::optional<Tensor> bias;
        if (in.size() > 2) bias = in[2];
        return tensor::conv2d(in.at(0), in.at(1), bias, p);
    }

    void runFallback(const LoopNode& n) {
        const graph::Node& node = m_a.captured->nodes[static_cast<size_t>(n.fxNode)];
        std::vector<Value> env(m_a.captured->nodes.size());
        size_t next = 0;
        Tensor wrt; // AOT backward: the operand whose gradient the node computes
        auto bind = [&](const graph::Arg& a, auto& self) -> void {
            if (a.kind == graph::Arg::Kind::Node) {
                Tensor t = viewOf(n.operands.at(next));
                if (static_cast<int32_t>(next++) == n.gradOf) {
                    t = Tensor::view(t.storage(), t.offset(), t.sizes(), t.strides(), t.dtype());
                    t.impl()->requiresGrad = true;
                    wrt = t;
                }
                env[static_cast<size_t>(a.node)] = Value(t);
            }
            for (const graph::Arg& item : a.items)
                self(item, self);
        };
        for (const graph::Arg& a : node.args)
            bind(a, bind);
        for (const auto& kv : node.kwargs)
            bind(kv.second, bind);
        std::optional<tensor::GradModeGuard> gradMode;
        if (wrt.defined()) gradMode.emplace(true);
        Value result = graph::runNode(m_interp, node, env);
        if (!result.isTensor()) fail("fallback " + node.name + " did not return a tensor");
        Tensor t = result.asTensor();
        if (wrt.defined()) t = operandGradient(n, t, wrt);
        m_bufs[static_cast<size_t>(n.output)] = t.isContiguous() ? t : tensor::contiguous(t);
    }

    /// The gradient of `wrt` (the operand of a fallback run again with autograd) given the
    /// result's gradient, the node's last operand; zeros where the result does not use it.
    Tensor operandGradient(const LoopNode& n, const Tensor& result, const Tensor& wrt) {
        Tensor grad = viewOf(n.operands.back());
        std::vector<Tensor> outputs{result}, inputs{wrt}, grads{grad};
        std::vector<Tensor> g = tensor::grad(outputs, inputs, grads, false, false, true);
        if (g[0].defined()) return g[0];
        return tensor::zeros(wrt.sizes(), {wrt.dtype(), wrt.device()});
    }

    Value outputs() {
        std::vector<Tensor> all;
        std::vector<Value> items;
        for (size_t i = 0; i < m_a.lowered.outputs.size(); ++i) {
            const compiler::BufferView& v = m_a.lowered.outputs[i];
            const Buffer& b = m_p.buffer(v.buffer);
            Tensor t = viewOf(v);
            if (b.origin == Buffer::Origin::Input && b.inputIndex < m_a.aten.inputCount) {
                const Tensor& in = m_bufs[static_cast<size_t>(v.buffer)];
                if (t.sizes() == in.sizes() && t.strides() == in.strides() &&
                    t.offset() == in.offset()) {
                    items.push_back(m_inputs[static_cast<size_t>(b.inputIndex)]);
                    all.push_back(items.back().asTensor());
                    continue;
                }
            }
            items.push_back(Value(t));
            all.push_back(t);
        }
        writeMutations(m_interp, m_a.aten, m_inputs, all);
        returnWrittenTensors(items);
        if (m_a.backward && tensor::gradModeEnabled()) return withBackward(items, all);
        items.resize(items.size() - m_a.aten.mutations.size());
        for (size_t i = 0; i < items.size(); ++i) {
            const compiler::AtenNode& node =
                m_a.aten.nodes[static_cast<size_t>(m_a.aten.outputs[i])];
            if (node.requiresGrad && tensor::gradModeEnabled()) {
                // No compiled backward (a GPU graph, or outputs whose grad the differentiation
                // could not follow): backward through it raises rather than give no gradient.
                tensor::setGradNode(
                    all[i], makeRef<tensor::UnimplementedBackward>("CompiledFunctionBackward"));
            }
        }
        return lang::tupleValue(std::move(items));
    }

    /// A user output that is a tensor the graph wrote (`x.add_(1); return x`) is that tensor,
    /// as in eager, not a copy of its new value.
    void returnWrittenTensors(std::vector<Value>& items) const {
        const compiler::AtenGraph& g = m_a.aten;
        for (const compiler::AtenGraph::Mutation& m : g.mutations)
            for (size_t k = 0; k < items.size(); ++k)
                if (!g.isMutationOutput(k) &&
                    g.outputs[k] == g.outputs[static_cast<size_t>(m.output)])
                    items[k] = Value(mutatedTensor(g, m_inputs, m));
    }

    /// AOT autograd: the outputs after the user's are saved for the backward; the user's that
    /// require grad get the compiled backward as their grad_fn.
    Value withBackward(std::vector<Value>& items, const std::vector<Tensor>& all) {
        const AotBackward& aot = *m_a.backward;
        size_t users = static_cast<size_t>(aot.userOutputs);
        std::vector<Tensor> saved(all.begin() + static_cast<std::ptrdiff_t>(users), all.end());
        std::vector<Tensor> outputs(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(users));
        std::vector<Tensor> targets;
        for (const compiler::GradTarget& t : aot.grads)
            targets.push_back(t.constant ? m_a.aten.constants[static_cast<size_t>(t.position)]
                                         : m_inputs[static_cast<size_t>(t.position)].asTensor());
        std::vector<int64_t> symbols = m_syms;
        auto node = makeRef<CompiledFunctionBackward>(m_artifacts, m_interp, m_sink, saved, outputs,
                                                      std::move(symbols), targets);
        items.resize(users - m_a.aten.mutations.size()); // the mutations' values end them
        for (size_t k = 0; k < items.size(); ++k) {
            if (aot.tangentOf[k] < 0) continue;
            // An output that is an input unchanged is returned as a new alias of it: the
            // input keeps its own grad_fn.
            const Tensor& out = outputs[k];
            Tensor t =
                Tensor::view(out.storage(), out.offset(), out.sizes(), out.strides(), out.dtype());
            tensor::setGradNode(t, node, static_cast<uint32_t>(k));
            items[k] = Value(t);
        }
        return lang::tupleValue(std::move(items));
    }

    std::shared_ptr<const GraphArtifacts> m_artifacts;
    Logger* m_logger;
    const std::string& m_compileId;
    const GraphArtifacts& m_a;
    const compiler::LoopProgram& m_p;
    lang::Interpreter& m_interp;
    std::span<const Value> m_inputs;
    EventSink* m_sink;
    std::vector<Tensor> m_bufs;
    std::vector<int64_t> m_syms;
};

} // namespace

Value CompiledGraph::run(lang::Interpreter& interp, std::span<const Value> inputs) {
    if (mutatedTensorAliased(m_a->aten, inputs))
        return graph::runGraph(interp, *m_a->captured,
                               std::vector<Value>(inputs.begin(), inputs.end()));
    return Run(m_a, interp, inputs, m_sink, m_logger, m_compileId).execute();
}

} // namespace kiln::inductor
