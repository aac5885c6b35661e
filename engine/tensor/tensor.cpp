// SPDX-License-Identifier: MIT
#include "tensor/tensor.h"

#include "support/assert.h"
#include "tensor/error.h"
#include "tensor/grad_node.h"

#include <algorithm>
#include <limits>
#include <string>

namespace kiln::tensor {

namespace {

thread_local bool t_gradMode = true;
DType g_defaultFloat = DType::Float32;

std::string shapeText(IntList sizes) {
    std::string s = "[";
    for (size_t i = 0; i < sizes.size(); ++i)
        s += (i ? ", " : "") + std::to_string(sizes[i]);
    return s + "]";
}

} // namespace

Tensor Tensor::empty(IntList sizes, DType dtype, Device device) {
    KILN_ASSERT(device.isCpu(), "only CPU storage is allocated by the tensor layer");
    int64_t n = checkedNumel(sizes);
    int64_t item = itemSize(dtype);
    if (n > std::numeric_limits<int64_t>::max() / item)
        failRuntime("DefaultCPUAllocator: can't allocate memory: you tried to allocate more than " +
                    std::to_string(std::numeric_limits<int64_t>::max()) + " bytes.");
    auto impl = makeRef<TensorImpl>();
    impl->storage = makeRef<Storage>(n * item, cpuAllocator());
    impl->sizes = DimVector(sizes);
    impl->strides = contiguousStrides(sizes);
    impl->dtype = dtype;
    return Tensor(std::move(impl));
}

void Tensor::failHostAccess(Device device) {
    fail(ErrorKind::NotImplementedError,
         "Could not run this operation on a tensor on " +
             Device{device.type, std::max(device.index, 0)}.str() +
             ": Kiln has no CUDA kernel for it yet, and its CPU kernels cannot read device "
             "memory. Move the tensor to the CPU with .cpu() first.");
}

Tensor Tensor::view(Ref<Storage> storage, int64_t offset, DimVector sizes, DimVector strides,
                    DType dtype) {
    auto impl = makeRef<TensorImpl>();
    impl->storage = std::move(storage);
    impl->offset = offset;
    impl->sizes = std::move(sizes);
    impl->strides = std::move(strides);
    impl->dtype = dtype;
    return Tensor(std::move(impl));
}

int64_t Tensor::size(int64_t d) const {
    return m_impl->sizes[wrapDim(d, dim())];
}

int64_t Tensor::stride(int64_t d) const {
    return m_impl->strides[wrapDim(d, dim())];
}

int64_t Tensor::numel() const {
    int64_t n = 1;
    for (int64_t s : m_impl->sizes)
        n *= s;
    return n;
}

bool Tensor::isContiguous() const {
    int64_t expected = 1;
    const auto& sz = m_impl->sizes;
    const auto& st = m_impl->strides;
    for (size_t i = sz.size(); i-- > 0;) {
        if (sz[i] == 0) return true;
        if (sz[i] != 1 && st[i] != expected) return false;
        expected *= sz[i];
    }
    return true;
}

DimVector contiguousStrides(IntList sizes) {
    DimVector strides(sizes.size());
    int64_t stride = 1;
    for (size_t i = sizes.size(); i-- > 0;) {
        strides[i] = stride;
        stride *= std::max<int64_t>(sizes[i], 1);
    }
    return strides;
}

int64_t checkedNumel(IntList sizes) {
    int64_t n = 1;
    for (int64_t s : sizes) {
        if (s < 0)
            failRuntime("Trying to create tensor with negative dimension " + std::to_string(s) +
                        ": " + shapeText(sizes));
        if (s != 0 && n > std::numeric_limits<int64_t>::max() / s)
            failRuntime("numel: integer multiplication overflow for shape " + shapeText(sizes));
        n *= s;
    }
    return n;
}

int64_t wrapDim(int64_t dim, int64_t rank) {
    int64_t effective = rank == 0 ? 1 : rank; // a 0-dim tensor accepts dims -1 and 0
    if (dim < -effective || dim >= effective)
        fail(ErrorKind::IndexError,
             "Dimension out of range (expected to be in range of [" + std::to_string(-effective) +
                 ", " + std::to_string(effective - 1) + "], but got " + std::to_string(dim) + ")");
    return dim < 0 ? dim + effective : dim;
}

DType defaultFloatDType() {
    return g_defaultFloat;
}

void setDefaultFloatDType(DType dtype) {
    g_defaultFloat = dtype;
}

bool gradModeEnabled() {
    return t_gradMode;
}

void setGradModeEnabled(bool enabled) {
    t_gradMode = enabled;
}

void recordGradFn(Tensor& out, std::string_view gradFnName,
                  std::initializer_list<const Tensor*> inputs) {
    recordGradFn(out, gradFnName, std::span<const Tensor* const>(inputs.begin(), inputs.size()));
}

void recordGradFn(Tensor& out, std::string_view gradFnName, std::span<const Tensor* const> inputs) {
    // Integer and bool results are not differentiable: PyTorch gives them no grad_fn.
    if (!t_gradMode || !isFloating(out.dtype())) return;
    bool any = false;
    for (const Tensor* input : inputs) {
        if (!input || !input->defined()) continue;
        refreshViewGradFn(*input); // a view written since may need its base's gradient now
        any = any || input->requiresGrad();
    }
    if (!any) return;
    auto node = makeRef<UnimplementedBackward>(gradFnName);
    for (const Tensor* input : inputs)
        node->next.push_back(input && input->defined() ? gradEdgeOf(*input) : GradEdge{});
    setGradNode(out, std::move(node));
}

TensorImpl::TensorImpl() = default;
TensorImpl::~TensorImpl() {
    releaseGradNode(std::move(gradFn));
}

namespace {
thread_local std::vector<Ref<GradNode>> t_dyingNodes;
thread_local bool t_freeingNodes = false;
} // namespace

void releaseGradNode(Ref<GradNode>&& node) {
    if (!node) return;
    if (node->refCount() > 1) { // not the last reference: nothing is freed
        node = {};
        return;
    }
    t_dyingNodes.push_back(std::move(node));
    if (t_freeingNodes) return; // the loop below frees it
    t_freeingNodes = true;
    while (!t_dyingNodes.empty()) {
        Ref<GradNode> dying = std::move(t_dyingNodes.back());
        t_dyingNodes.pop_back();
        dying = {}; // its destructor queues its own edges here
    }
    t_freeingNodes = false;
}

GradNode::~GradNode() {
    for (GradEdge& e : next)
        releaseGradNode(std::move(e.node));
}

std::string_view Tensor::gradFn() const {
    return m_impl->gradFn ? m_impl->gradFn->name() : std::string_view();
}

GradEdge gradEdgeOf(const Tensor& input) {
    refreshViewGradFn(input);
    if (!input.requiresGrad()) return {};
    if (input.gradNode()) return {input.gradNode(), input.impl()->gradOutputNr};
    return {makeRef<AccumulateGrad>(input.implRef()), 0};
}

void setGradNode(Tensor& out, Ref<GradNode> node, uint32_t outputNr) {
    // The node of an in-place op on a view: the base's history is rebased onto it.
    if (out.impl()->view.base && rebaseInPlaceView(out, node, outputNr)) [[unlikely]]
        return;
    forgetRebasedView(); // attachDerivative on `out` now means out's own node
    out.impl()->requiresGrad = true;
    out.impl()->gradFn = std::move(node);
    out.impl()->gradOutputNr = outputNr;
}

void renameGradFn(Tensor& t, std::string_view name) {
    if (GradNode* inPlace = rebasedInPlaceNode(t))
        inPlace->setName(name);
    else if (t.gradNode())
        t.gradNode()->setName(name);
}

void clearGradFn(Tensor& t) {
    t.impl()->gradFn = {};
    t.impl()->gradOutputNr = 0;
}

std::vector<Tensor> AccumulateGrad::apply(std::vector<Tensor>) {
    KILN_UNREACHABLE("the autograd engine accumulates leaf gradients itself");
}

std::vector<Tensor> UnimplementedBackward::apply(std::vector<Tensor>) {
    fail(ErrorKind::NotImplementedError, "the derivative of the op behind " + std::string(name()) +
                                             " is not implemented in Kiln yet");
}

} // namespace kiln::tensor
