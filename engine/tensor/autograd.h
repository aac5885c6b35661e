// SPDX-License-Identifier: MIT
/// \file
/// Reverse-mode automatic differentiation over the graph of GradNodes the eager ops record
/// (grad_node.h): `backward()` and `torch.autograd.grad`, the saved tensors of nodes with their
/// version checks, and the helpers derivative formulas share. PyTorch's semantics: gradients of
/// leaves accumulate into `.grad`; a graph is freed after its backward unless retain_graph;
/// with create_graph the formulas themselves are recorded, so gradients can be differentiated
/// again.
#pragma once

#include "tensor/conv.h"
#include "tensor/grad_node.h"
#include "tensor/ops.h"
#include "tensor/tensor.h"

#include <optional>
#include <span>
#include <vector>

namespace kiln::tensor {

/// backward() of `outputs` seeded with `grads` (an undefined seed: ones, allowed only for a
/// scalar output, PyTorch's "grad can be implicitly created only for scalar outputs").
void backward(std::span<const Tensor> outputs, std::span<const Tensor> grads, bool retainGraph,
              bool createGraph);

/// backward(inputs=...): only `inputs` accumulate their gradients into .grad (non-leaves too);
/// RuntimeError for no inputs or one that needs no grad, as PyTorch's.
void backward(std::span<const Tensor> outputs, std::span<const Tensor> grads, bool retainGraph,
              bool createGraph, std::span<const Tensor> inputs);

/// torch.autograd.grad: the gradients of `outputs` with respect to `inputs`, nothing
/// accumulated into `.grad`. An input the outputs do not depend on is an error unless
/// `allowUnused` (then its gradient is undefined).
std::vector<Tensor> grad(std::span<const Tensor> outputs, std::span<const Tensor> inputs,
                         std::span<const Tensor> grads, bool retainGraph, bool createGraph,
                         bool allowUnused);

/// Tensor.register_hook: `fn` runs on `t`'s gradient before it is used (a leaf's before it
/// accumulates into .grad), and may return a replacement. RuntimeError if `t` needs no grad.
void addGradHook(const Tensor& t, GradHookFn fn);
/// Tensor.retain_grad: a non-leaf keeps its gradient (TensorImpl::retainedGrad, accumulated over
/// backward calls); a leaf keeps it anyway.
void retainGrad(const Tensor& t);

/// A tensor a node keeps for backward, with the storage version it had then: using it after
/// an in-place write is PyTorch's "modified by an inplace operation" error.
class SavedTensor {
public:
    SavedTensor() = default;
    /// `isOutput`: the tensor is the node's own output (named so in the error).
    SavedTensor(const Tensor& t, bool isOutput = false);
    ~SavedTensor() { release(); }
    SavedTensor(SavedTensor&& other) noexcept;
    SavedTensor& operator=(SavedTensor&& other) noexcept;
    SavedTensor(const SavedTensor&) = delete;
    SavedTensor& operator=(const SavedTensor&) = delete;
    /// The saved tensor; raises if it was written since, or the graph was freed.
    Tensor unpack(const GradNode& owner) const;
    void release();
    bool defined() const { return m_tensor.defined() || m_wasDefined; }

private:
    Tensor m_tensor;
    uint32_t m_version = 0;
    bool m_isOutput = false;
    bool m_wasDefined = false;
};

/// The number of in-place writes to `t`'s storage so far (shared by its views).
uint32_t storageVersion(const Tensor& t);
/// Counts an in-place write to `t` (every in-place op calls it before writing).
void bumpVersion(const Tensor& t);

/// Anomaly detection (torch.autograd.set_detect_anomaly / detect_anomaly): with check_nan, the
/// backward checks each node's gradients and raises PyTorch's "Function 'MulBackward0' returned
/// nan values in its 0th output." Process-wide, as PyTorch's.
struct AnomalyMode {
    bool enabled = false;
    bool checkNan = true;
};
AnomalyMode anomalyMode();
void setAnomalyMode(AnomalyMode mode);

/// `grad` summed down to `sizes` (the shape of an input that was broadcast).
Tensor sumToSize(const Tensor& grad, IntList sizes);

/// After recordGradFn named `out`'s node: replaces it with `node` (the op's derivative), the
/// edges kept. No-op when `out` got no node (grad mode off, no input requires grad) or `node`
/// is null (no derivative yet: the named node stays and raises in backward).
void attachDerivative(Tensor& out, Ref<GradNode> node);

/// The node named `name` for `op` of `a` (and `b`) giving `out`; null where Kiln has no
/// derivative for it yet (derivatives_pointwise.cpp).
Ref<GradNode> unaryBackward(UnaryOp op, std::string_view name, const Tensor& a, const Tensor& out);
/// a + alpha * b (torch.add/sub with alpha).
void attachAddScaledDerivative(Tensor& out, const Tensor& a, const Tensor& b, Scalar alpha);
/// Whether op's derivative reads its input (not only its output): an in-place op must then
/// keep a copy of the input as it was.
bool unaryDerivativeReadsInput(UnaryOp op);
Ref<GradNode> binaryBackward(BinaryOp op, std::string_view name, const Tensor& a, const Tensor& b,
                             const Tensor& out);

/// Derivatives of the structural ops (derivatives_structural.cpp), attached after the op's
/// recordGradFn like attachDerivative: a view (or reshape's copy) of `input`; sum or mean of
/// `input` over `dims` (all when empty); a matrix product.
void attachViewDerivative(Tensor& view, std::string_view name, const Tensor& input);
void attachReductionDerivative(Tensor& out, std::string_view name, const Tensor& input,
                               IntList dims, bool keepdim, bool mean);
/// The gradient is `out`'s (spread back over the reduced `dims` unless `keepdim`; no dims and
/// keepdim for an elementwise op) times `factor`, computed by the forward (leaky_relu, logsumexp).
void attachFactorDerivative(Tensor& out, const Tensor& factor, IntList dims, bool keepdim);
/// amax/amin over `dims` (all when empty; max()/min() of everything): shared among ties.
void attachExtremumDerivative(Tensor& out, const Tensor& input, IntList dims, bool keepdim);
/// max(dim)/min(dim), topk and sort (keepdim: indices of the values' rank): to the positions
/// `indices` names.
void attachIndexedExtremumDerivative(Tensor& values, const Tensor& input, const Tensor& indices,
                                     int64_t dim, bool keepdim);
/// prod over `dims` (all when empty; else one dim), cumsum along `dim`, and
/// linalg.vector_norm of order `p` over `dims` (derivatives_reductions.cpp).
void attachProdDerivative(Tensor& out, const Tensor& input, IntList dims, bool keepdim);
void attachCumsumDerivative(Tensor& out, const Tensor& input, int64_t dim);
void attachCumprodDerivative(Tensor& out, const Tensor& input, int64_t dim);
void attachNormDerivative(Tensor& out, const Tensor& input, double p, IntList dims, bool keepdim);
/// var (std when `sqrt`) of `input` over `dims` (all when empty).
void attachVarianceDerivative(Tensor& out, const Tensor& input, IntList dims, double correction,
                              bool keepdim, bool sqrt);
/// clone, contiguous, a dtype conversion: the gradient passes through, cast back.
void attachCopyDerivative(Tensor& out, const Tensor& input);
/// softmax or log_softmax of `input` over `dim` (wrapped) giving `out`.
void attachSoftmaxDerivative(Tensor& out, bool log, const Tensor& input, int64_t dim);
/// mse_loss reduced by 'sum', 'mean' or neither ('none').
void attachMseLossDerivative(Tensor& out, const Tensor& input, const Tensor& target, bool mean);
/// Derivatives of the neural-network functions (derivatives_nn.cpp).
void attachLayerNormDerivative(Tensor& out, const Tensor& x, const std::optional<Tensor>& weight,
                               const std::optional<Tensor>& bias, int64_t normalizedDims,
                               double eps);
void attachEmbeddingDerivative(Tensor& out, const Tensor& weight, const Tensor& indices,
                               std::optional<int64_t> paddingIdx);
/// nll_loss of `logp` (class-index targets); cross_entropy passes its log_softmax and label
/// smoothing. Reduced by 'sum', 'mean' or neither ('none').
void attachNllLossDerivative(Tensor& out, const Tensor& logp, const Tensor& target,
                             const std::optional<Tensor>& weight, bool sum, bool mean,
                             int64_t ignoreIndex, double labelSmoothing);
/// cross_entropy against class probabilities (`target` shaped as `x`); edges: x, target.
void attachProbabilityCrossEntropyDerivative(Tensor& out, const Tensor& x, const Tensor& target,
                                             const std::optional<Tensor>& weight, bool mean,
                                             double labelSmoothing);
/// scaled_dot_product_attention without dropout.
void attachAttentionDerivative(Tensor& out, const Tensor& q, const Tensor& k, const Tensor& v,
                               const std::optional<Tensor>& mask, bool isCausal, double scale);
/// conv2d and conv_transpose2d (derivatives_conv.cpp): input, weight and bias.
void attachConvDerivative(Tensor& out, const Tensor& input, const Tensor& weight, bool hasBias,
                          const ConvParams& params);
void attachConvTransposeDerivative(Tensor& out, const Tensor& input, const Tensor& weight,
                                   bool hasBias, const ConvTransposeParams& params);
/// The window ops over images (derivatives_pool.cpp).
void attachMaxPoolDerivative(Tensor& out, const Tensor& input, const PoolParams& params);
void attachAvgPoolDerivative(Tensor& out, const Tensor& input, const PoolParams& params,
                             bool countIncludePad, std::optional<int64_t> divisorOverride);
void attachAdaptiveAvgPoolDerivative(Tensor& out, const Tensor& input, Pair outputSize);
void attachResampleDerivative(Tensor& out, const Tensor& input, ResampleMode mode,
                              bool alignCorners, std::array<double, 2> scales);
/// Derivatives of the ops that pick, join or mask elements (derivatives_selection.cpp).
void attachCatDerivative(Tensor& out, const std::vector<Tensor>& inputs, int64_t dim);
void attachWhereDerivative(Tensor& out, const Tensor& condition, const Tensor& a, const Tensor& b);
void attachMaskedFillDerivative(Tensor& out, const Tensor& a, const Tensor& mask,
                                const Tensor& value);
void attachClampDerivative(Tensor& out, const Tensor& a, const std::optional<Tensor>& lo,
                           const std::optional<Tensor>& hi);
void attachIndexSelectDerivative(Tensor& out, const Tensor& a, int64_t dim, const Tensor& index);
/// self.index_add(dim, index, source, alpha) (dim wrapped).
void attachIndexAddDerivative(Tensor& out, int64_t dim, const Tensor& index, const Tensor& source,
                              Scalar alpha);
void attachGatherDerivative(Tensor& out, const Tensor& a, int64_t dim, const Tensor& index);
/// scatter of `src` (null: of a value) into `self` along `dim` (wrapped); `overwrites`: the
/// scattered places lose self's value (scatter; not scatter_add or an including sum).
void attachScatterDerivative(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                             const Tensor* src, bool overwrites);
/// flip, roll, repeat and lerp (derivatives_rearrange.cpp).
void attachFlipDerivative(Tensor& out, IntList dims);
void attachRollDerivative(Tensor& out, IntList shifts, IntList dims);
void attachRepeatDerivative(Tensor& out, const Tensor& a, IntList repeats);
void attachLerpDerivative(Tensor& out, const Tensor& a, const Tensor& b, const Tensor& weight);
/// scatter_reduce with 'prod', 'mean', 'amax' or 'amin' (derivatives_scatter_reduce.cpp).
void attachScatterReduceDerivative(Tensor& out, const Tensor& self, int64_t dim,
                                   const Tensor& index, const Tensor& src, ScatterReduce reduce,
                                   bool includeSelf);
/// scatter with reduce=: PyTorch's NotImplemented node, which raises at backward.
void attachScatterNotImplemented(Tensor& out);
/// a[items] = value with tensor indices, after its recordGradFn on `written` (a itself).
void attachIndexPutDerivative(Tensor& written, const std::vector<IndexItem>& items,
                              const Tensor& value);
/// a[items] = value with basic items only, after its recordGradFn on `written` (a itself):
/// CopySlices where the items made a view of a, else CopyBackwards or FillBackward3
/// (derivatives_writes.cpp).
void attachBasicWriteDerivative(Tensor& written, const std::vector<IndexItem>& items, bool madeView,
                                const Tensor& value);
/// copy_(value), fill_(value) and zero_() (no value) of all of `written`, after its
/// recordGradFn: the old values get a zero gradient, the value the output's.
void attachOverwriteDerivative(Tensor& written, const Tensor* value);
/// For formulas under create_graph (autograd_views.cpp): a view of `whole` at `offset` (from
/// whole's) with the given geometry, recorded (AsStridedBackward0; an in-place write to it
/// rebases `whole`), and target.copy_(value) recorded (CopyBackwards; CopySlices on a view).
Tensor recordedRegion(const Tensor& whole, int64_t offset, IntList sizes, IntList strides);
void recordedCopy(const Tensor& target, const Tensor& value);
/// a[items] with tensor indices.
void attachIndexDerivative(Tensor& out, const Tensor& a, const std::vector<IndexItem>& items);

enum class ProductKind { Mm, Bmm, Mv, Dot, Addmm };
/// out = beta * bias + alpha * (a @ b); `bias` only for Addmm.
void attachProductDerivative(Tensor& out, std::string_view name, ProductKind kind,
                             const Tensor* bias, const Tensor& a, const Tensor& b, Scalar beta,
                             Scalar alpha);

} // namespace kiln::tensor
