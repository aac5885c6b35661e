// SPDX-License-Identifier: MIT
// The backward pass: the nodes reachable from the outputs run once each, in an order where a
// node runs after every node that feeds it a gradient (Kahn's algorithm over the dependency
// counts), their input gradients summed per edge; leaves accumulate into `.grad` (backward)
// or are captured (autograd.grad). Formulas run with grad mode off unless create_graph.
#include "tensor/autograd.h"
#include "tensor/convert.h"
#include "tensor/error.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <unordered_map>

namespace kiln::tensor {

namespace {

constexpr const char* kFreedGraph =
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.";

/// a + b where either may be undefined (no gradient reached that way).
Tensor addGrads(const Tensor& a, const Tensor& b) {
    if (!a.defined()) return b;
    if (!b.defined()) return a;
    return binary(BinaryOp::Add, a, b);
}

/// What the run captures instead of accumulating: autograd.grad's inputs, by the edge that
/// leads to each (a leaf's accumulator stands for the leaf itself).
struct Capture {
    std::vector<GradEdge> edges;
    std::vector<Tensor> grads;

    int find(const GradNode* node, uint32_t inputNr) const {
        for (size_t i = 0; i < edges.size(); ++i) {
            const GradNode* e = edges[i].node.get();
            if (!e) continue;
            auto* acc = dynamic_cast<const AccumulateGrad*>(e);
            auto* other = dynamic_cast<const AccumulateGrad*>(node);
            bool same = acc && other ? acc->leaf() == other->leaf()
                                     : e == node && edges[i].inputNr == inputNr;
            if (same) return static_cast<int>(i);
        }
        return -1;
    }
};

/// Adds `grad` into `t`'s .grad: a gradient of its own the first time (later accumulation must
/// not write into another tensor), in place after, out of place with create_graph.
void accumulateInto(TensorImpl& t, const Tensor& grad, bool createGraph) {
    if (!t.grad) {
        Tensor own = createGraph ? grad : clone(grad);
        if (!createGraph) {
            own.impl()->requiresGrad = false;
            clearGradFn(own);
        }
        t.grad = own.implRef();
        return;
    }
    Tensor current(t.grad);
    if (createGraph || current.requiresGrad()) {
        t.grad = binary(BinaryOp::Add, current, grad).implRef();
        return;
    }
    binaryInPlace(BinaryOp::Add, current, grad);
}

class Run {
public:
    Run(bool retainGraph, bool createGraph, Capture* capture)
        : m_retain(retainGraph)
        , m_create(createGraph)
        , m_capture(capture) {}

    void seed(const GradEdge& edge, const Tensor& grad) {
        if (!edge.node) return;
        m_roots.push_back(edge.node.get());
        deliver(edge, grad);
    }

    void execute() {
        countDependencies();
        std::vector<GradNode*> ready;
        for (GradNode* root : m_roots)
            if (m_dependencies[root] == 0 &&
                std::find(ready.begin(), ready.end(), root) == ready.end())
                ready.push_back(root);
        GradModeGuard mode(m_create);
        while (!ready.empty()) {
            GradNode* node = ready.back();
            ready.pop_back();
            runNode(*node);
            for (const GradEdge& e : node->next) {
                if (!e.node) continue;
                if (--m_dependencies[e.node.get()] == 0) ready.push_back(e.node.get());
            }
        }
        // Without retain_graph the saved tensors go (a node that saved none can run again,
        // as in PyTorch).
        if (!m_retain)
            for (GradNode* node : m_executed)
                node->releaseSaved();
    }

private:
    void deliver(const GradEdge& edge, const Tensor& grad) {
        auto& slots = m_buffers[edge.node.get()];
        if (slots.size() < edge.node->outputCount) slots.resize(edge.node->outputCount);
        slots[edge.inputNr] = addGrads(slots[edge.inputNr], grad);
    }

    void countDependencies() {
        std::vector<GradNode*> stack(m_roots.begin(), m_roots.end());
        std::unordered_map<GradNode*, bool> seen;
        for (GradNode* r : m_roots)
            seen[r] = true;
        while (!stack.empty()) {
            GradNode* node = stack.back();
            stack.pop_back();
            for (const GradEdge& e : node->next) {
                if (!e.node) continue;
                ++m_dependencies[e.node.get()];
                if (!seen[e.node.get()]) {
                    seen[e.node.get()] = true;
                    stack.push_back(e.node.get());
                }
            }
        }
    }

    void runNode(GradNode& node) {
        std::vector<Tensor> grads = std::move(m_buffers[&node]);
        m_buffers.erase(&node);
        grads.resize(node.outputCount);
        m_executed.push_back(&node);
        runHooks(node, grads);
        if (m_capture)
            for (uint32_t i = 0; i < node.outputCount; ++i) {
                int k = m_capture->find(&node, i);
                if (k >= 0)
                    m_capture->grads[static_cast<size_t>(k)] =
                        addGrads(m_capture->grads[static_cast<size_t>(k)], grads[i]);
            }
        if (auto* acc = dynamic_cast<AccumulateGrad*>(&node)) {
            if (!m_capture && grads[0].defined()) accumulate(*acc, grads[0]);
            return;
        }
        if (std::none_of(grads.begin(), grads.end(), [](const Tensor& g) { return g.defined(); }))
            return; // nothing reached this node: its inputs get nothing from it
        std::vector<Tensor> inputGrads = node.apply(std::move(grads));
        if (AnomalyMode anomaly = anomalyMode(); anomaly.enabled && anomaly.checkNan)
            checkNoNan(node, inputGrads);
        for (size_t i = 0; i < node.next.size() && i < inputGrads.size(); ++i)
            if (node.next[i].node && inputGrads[i].defined()) deliver(node.next[i], inputGrads[i]);
    }

    /// Anomaly mode: PyTorch's error for a node whose gradient holds a NaN.
    static void checkNoNan(const GradNode& node, const std::vector<Tensor>& grads) {
        for (size_t i = 0; i < grads.size(); ++i) {
            const Tensor& g = grads[i];
            if (!g.defined() || !isFloating(g.dtype())) continue;
            GradModeGuard noGrad(false);
            if (item(any(unary(UnaryOp::IsNan, g), std::nullopt, false)).toBool())
                failRuntime("Function '" + std::string(node.name()) +
                            "' returned nan values in its " + std::to_string(i) + "th output.");
        }
    }

    /// The tensor hooks on the gradients arriving at `node` (a leaf's for its AccumulateGrad).
    static void runHooks(GradNode& node, std::vector<Tensor>& grads) {
        const GradHooks* hooks = node.hooks.get();
        if (auto* acc = dynamic_cast<AccumulateGrad*>(&node)) hooks = acc->leaf()->leafHooks.get();
        if (!hooks) return;
        for (uint32_t i = 0; i < grads.size(); ++i)
            if (grads[i].defined()) grads[i] = hooks->run(i, std::move(grads[i]));
    }

    void accumulate(AccumulateGrad& acc, const Tensor& grad) {
        accumulateInto(*acc.leaf(), grad, m_create);
    }

    bool m_retain;
    bool m_create;
    Capture* m_capture;
    std::vector<GradNode*> m_roots;
    std::vector<GradNode*> m_executed;
    std::unordered_map<GradNode*, std::vector<Tensor>> m_buffers;
    std::unordered_map<GradNode*, int> m_dependencies;
};

/// The seed of output `i`: the given gradient (checked against the output's shape) or ones for
/// a scalar output.
Tensor seedFor(const Tensor& output, const Tensor* given, size_t i) {
    if (given && given->defined()) {
        if (!(given->sizes() == output.sizes()))
            failRuntime("Mismatch in shape: grad_output[" + std::to_string(i) +
                        "] has a shape of " + torchSizeString(given->sizes()) + " and output[" +
                        std::to_string(i) + "] has a shape of " + torchSizeString(output.sizes()) +
                        ".");
        return *given;
    }
    if (output.numel() != 1) failRuntime("grad can be implicitly created only for scalar outputs");
    return ones(output.sizes(), TensorOptions{output.dtype(), output.device(), false});
}

void seedAll(Run& run, std::span<const Tensor> outputs, std::span<const Tensor> grads) {
    for (size_t i = 0; i < outputs.size(); ++i) {
        const Tensor& out = outputs[i];
        if (!out.requiresGrad())
            failRuntime("element " + std::to_string(i) +
                        " of tensors does not require grad and does not have a grad_fn");
        run.seed(gradEdgeOf(out), seedFor(out, i < grads.size() ? &grads[i] : nullptr, i));
    }
}

} // namespace

void backward(std::span<const Tensor> outputs, std::span<const Tensor> grads, bool retainGraph,
              bool createGraph) {
    Run run(retainGraph, createGraph, nullptr);
    seedAll(run, outputs, grads);
    run.execute();
}

std::vector<Tensor> grad(std::span<const Tensor> outputs, std::span<const Tensor> inputs,
                         std::span<const Tensor> grads, bool retainGraph, bool createGraph,
                         bool allowUnused) {
    Capture capture;
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (!inputs[i].requiresGrad())
            failRuntime("One of the differentiated Tensors does not require grad");
        capture.edges.push_back(gradEdgeOf(inputs[i]));
    }
    capture.grads.resize(inputs.size());
    Run run(retainGraph, createGraph, &capture);
    seedAll(run, outputs, grads);
    run.execute();
    for (const Tensor& g : capture.grads)
        if (!g.defined() && !allowUnused)
            failRuntime("One of the differentiated Tensors appears to not have been used in the "
                        "graph. Set allow_unused=True if this is the desired behavior.");
    return capture.grads;
}

void backward(std::span<const Tensor> outputs, std::span<const Tensor> grads, bool retainGraph,
              bool createGraph, std::span<const Tensor> inputs) {
    if (inputs.empty()) failRuntime("`inputs` argument to `backward()` cannot be empty.");
    for (const Tensor& t : inputs)
        if (!t.requiresGrad())
            failRuntime("can't retain_grad on Tensor that has requires_grad=False");
    std::vector<Tensor> result = grad(outputs, inputs, grads, retainGraph, createGraph, true);
    for (size_t i = 0; i < inputs.size(); ++i) // non-leaf inputs get a .grad too, as in PyTorch
        if (result[i].defined()) accumulateInto(*inputs[i].impl(), result[i], createGraph);
}

SavedTensor::SavedTensor(const Tensor& t, bool isOutput)
    // A node's own output is kept as a plain view of its storage: the output holds the node,
    // so holding the output itself would be a cycle that is never freed.
    : m_tensor(isOutput && t.defined()
                   ? Tensor::view(t.storage(), t.offset(), t.sizes(), t.strides(), t.dtype())
                   : t)
    , m_version(t.defined() ? storageVersion(t) : 0)
    , m_isOutput(isOutput)
    , m_wasDefined(t.defined()) {
    if (m_tensor.defined()) ++m_tensor.impl()->autogradRefs;
}

SavedTensor::SavedTensor(SavedTensor&& other) noexcept
    : m_tensor(std::move(other.m_tensor))
    , m_version(other.m_version)
    , m_isOutput(other.m_isOutput)
    , m_wasDefined(other.m_wasDefined) {
    other.m_tensor = Tensor();
}

SavedTensor& SavedTensor::operator=(SavedTensor&& other) noexcept {
    if (this == &other) return *this;
    release();
    m_tensor = std::move(other.m_tensor);
    other.m_tensor = Tensor();
    m_version = other.m_version;
    m_isOutput = other.m_isOutput;
    m_wasDefined = other.m_wasDefined;
    return *this;
}

void SavedTensor::release() {
    if (!m_tensor.defined()) return;
    --m_tensor.impl()->autogradRefs;
    m_tensor = Tensor();
}

Tensor SavedTensor::unpack(const GradNode& owner) const {
    if (!m_wasDefined) return Tensor();
    if (!m_tensor.defined()) failRuntime(kFreedGraph);
    uint32_t now = storageVersion(m_tensor);
    if (now != m_version) {
        std::string which = "[torch." + std::string(dtypeLegacyName(m_tensor.dtype())) + "Tensor " +
                            shapeString(m_tensor.sizes()) + "]";
        std::string_view producer = m_isOutput ? owner.name() : m_tensor.gradFn();
        if (!producer.empty())
            which += ", which is output " + std::to_string(m_tensor.impl()->gradOutputNr) + " of " +
                     std::string(producer) + ",";
        failRuntime("one of the variables needed for gradient computation has been modified by "
                    "an inplace operation: " +
                    which + " is at version " + std::to_string(now) + "; expected version " +
                    std::to_string(m_version) +
                    " instead. Hint: enable anomaly detection to find the operation that failed "
                    "to compute its gradient, with torch.autograd.set_detect_anomaly(True).");
    }
    if (m_isOutput && gradModeEnabled() && owner.outputCount == 1 && isFloating(m_tensor.dtype())) {
        // A backward with create_graph differentiates the formula again: the output it reads
        // is the node's output there, so it leads back to the node (tanh's second derivative
        // goes through 1 - y^2). The view is made per unpack, so the node does not hold it.
        Tensor out = Tensor::view(m_tensor.storage(), m_tensor.offset(), m_tensor.sizes(),
                                  m_tensor.strides(), m_tensor.dtype());
        setGradNode(out, Ref<GradNode>(const_cast<GradNode*>(&owner)), 0);
        return out;
    }
    return m_tensor;
}

void attachDerivative(Tensor& out, Ref<GradNode> node) {
    if (!node || !out.gradNode()) return;
    if (replaceRebasedInPlaceNode(out, node)) return; // an in-place op on a view
    node->next = out.gradNode()->next;
    out.impl()->gradFn = std::move(node);
}

uint32_t storageVersion(const Tensor& t) {
    return t.storage()->version();
}

namespace {
std::atomic<bool> g_anomalyEnabled{false};
std::atomic<bool> g_anomalyCheckNan{true};
} // namespace

AnomalyMode anomalyMode() {
    return {g_anomalyEnabled.load(), g_anomalyCheckNan.load()};
}

void setAnomalyMode(AnomalyMode mode) {
    g_anomalyEnabled = mode.enabled;
    g_anomalyCheckNan = mode.checkNan;
}

void bumpVersion(const Tensor& t) { // beginInPlaceWrite's last step
    t.storage()->bumpVersion();
}

Tensor sumToSize(const Tensor& grad, IntList sizes) {
    if (grad.sizes() == DimVector(sizes)) return grad;
    const int64_t lead = grad.dim() - static_cast<int64_t>(sizes.size());
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < lead; ++d)
        dims.push_back(d);
    for (size_t d = 0; d < sizes.size(); ++d)
        if (sizes[d] == 1 && grad.sizes()[static_cast<size_t>(lead) + d] != 1)
            dims.push_back(lead + static_cast<int64_t>(d));
    Tensor out = dims.empty() ? grad : sum(grad, dims, true);
    return lead > 0 || !(out.sizes() == DimVector(sizes)) ? reshape(out, sizes) : out;
}

} // namespace kiln::tensor
