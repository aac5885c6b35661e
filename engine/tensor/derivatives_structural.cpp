// SPDX-License-Identifier: MIT
// Derivatives of views, sum and mean, and the matrix products.
//
// A view's gradient is scattered back through the view's own geometry: a zero buffer laid out
// like the storage the input and the view share, the gradient written at the view's places,
// read back at the input's. One formula serves every view that does not repeat elements
// (view, reshape, permute, transpose, squeeze, unsqueeze, select, slice, narrow, diagonal);
// expand repeats elements, so its gradient is summed instead. Only the geometry is kept.
#include "tensor/autograd.h"
#include "tensor/convert.h"
#include "tensor/ops.h"

#include <algorithm>

namespace kiln::tensor {

namespace {

/// `t` contiguous; when it is in the autograd graph (create_graph), the copy is recorded
/// (CloneBackward0), so the gradient formula stays differentiable.
Tensor recordedContiguous(const Tensor& t) {
    if (t.isContiguous()) return t;
    Tensor copy = contiguous(t);
    if (gradModeEnabled() && t.requiresGrad()) {
        recordGradFn(copy, "CloneBackward0", {&t});
        attachCopyDerivative(copy, t);
    }
    return copy;
}

struct Geometry {
    DimVector sizes;
    DimVector strides;
    int64_t offset = 0;

    explicit Geometry(const Tensor& t)
        : sizes(t.sizes())
        , strides(t.strides())
        , offset(t.offset()) {}
    /// One past the last storage element it reaches (strides are non-negative for views).
    int64_t end() const {
        int64_t last = offset;
        for (size_t d = 0; d < sizes.size(); ++d) {
            if (sizes[d] == 0) return offset;
            last += (sizes[d] - 1) * strides[d];
        }
        return last + 1;
    }
};

class ViewBackward final : public GradNode {
public:
    /// Scatter: through the shared storage; Expand: summed over the repeats; Reshape: the
    /// result is a copy in another shape (reshape of a non-viewable input).
    enum class Mode { Scatter, Expand, Reshape };

    ViewBackward(std::string_view name, Mode mode, const Tensor& input, const Tensor& view)
        : GradNode(name)
        , m_mode(mode)
        , m_input(input)
        , m_view(view)
        , m_dtype(input.dtype())
        , m_device(input.device()) {}

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const Tensor& g = grads[0];
        if (m_mode == Mode::Expand) return {toDType(sumToSize(g, m_input.sizes), m_dtype)};
        if (m_mode == Mode::Reshape) return {toDType(reshape(g, m_input.sizes), m_dtype)};
        const int64_t base = std::min(m_input.offset, m_view.offset);
        const int64_t extent = std::max(m_input.end(), m_view.end()) - base;
        Tensor buffer = zeros(DimVector{extent}, TensorOptions{g.dtype(), m_device, false});
        auto at = [&](const Geometry& geo) {
            return Tensor::view(buffer.storage(), geo.offset - base, geo.sizes, geo.strides,
                                g.dtype());
        };
        if (gradModeEnabled() && g.requiresGrad()) {
            // create_graph: the same scatter recorded, so it is differentiable again.
            Tensor input = at(m_input);
            recordedCopy(
                recordedRegion(input, m_view.offset - m_input.offset, m_view.sizes, m_view.strides),
                g);
            return {toDType(recordedContiguous(input), m_dtype)};
        }
        copyInto(at(m_view), g);
        return {toDType(contiguous(at(m_input)), m_dtype)};
    }

private:
    Mode m_mode;
    Geometry m_input;
    Geometry m_view;
    DType m_dtype;
    Device m_device;
};

/// The sorted, wrapped dims a reduction over `dims` (all when empty) of a rank-`rank` input ran.
std::vector<int64_t> reducedDims(IntList dims, int64_t rank) {
    std::vector<int64_t> out;
    for (int64_t d : dims)
        out.push_back(wrapDim(d, rank));
    if (out.empty())
        for (int64_t d = 0; d < rank; ++d)
            out.push_back(d);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

/// A reduction's output gradient broadcast back over the input's shape.
Tensor spreadOver(Tensor g, const std::vector<int64_t>& dims, bool keepdim, IntList sizes) {
    if (!keepdim)
        for (int64_t d : dims)
            g = unsqueeze(g, d);
    return expand(g, sizes);
}

class ReductionBackward final : public GradNode {
public:
    ReductionBackward(std::string_view name, const Tensor& input, IntList dims, bool keepdim,
                      bool mean)
        : GradNode(name)
        , m_sizes(input.sizes())
        , m_dtype(input.dtype())
        , m_dims(reducedDims(dims, input.dim()))
        , m_keepdim(keepdim)
        , m_mean(mean) {}

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor g = spreadOver(grads[0], m_dims, m_keepdim, m_sizes);
        if (m_mean) {
            int64_t count = 1;
            for (int64_t d : m_dims)
                count *= m_sizes[static_cast<size_t>(d)];
            g = binary(BinaryOp::Div, g, wrapNumber(Scalar(double(count))));
        }
        // Under create_graph the copy is recorded: a sum's gradient (an expanded view) made
        // contiguous by a plain copy lost its history, and the second derivative was silently
        // missing (autograd.grad(s * s, x, create_graph=True) with s = x.sum()).
        return {toDType(recordedContiguous(g), m_dtype)};
    }

private:
    DimVector m_sizes;
    DType m_dtype;
    std::vector<int64_t> m_dims;
    bool m_keepdim;
    bool m_mean;
};

/// The output's gradient, spread back over the reduced dims, times a factor the forward
/// computed: leaky_relu's slope per element, logsumexp's softmax.
class FactorBackward final : public GradNode {
public:
    FactorBackward(std::string_view name, const Tensor& factor, IntList dims, bool keepdim)
        : GradNode(name)
        , m_factor(factor)
        , m_dims(reducedDims(dims, factor.dim()))
        , m_keepdim(keepdim) {}

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor factor = m_factor.unpack(*this);
        Tensor g = spreadOver(grads[0], m_dims, m_keepdim, factor.sizes());
        return {binary(BinaryOp::Mul, g, factor)};
    }

    void releaseSaved() override { m_factor.release(); }

private:
    SavedTensor m_factor;
    std::vector<int64_t> m_dims;
    bool m_keepdim;
};

/// amax/amin, and max()/min() over everything: the gradient is shared evenly by the elements
/// equal to the result, as PyTorch's (evenly_distribute_backward).
class ExtremumBackward final : public GradNode {
public:
    ExtremumBackward(std::string_view name, const Tensor& input, const Tensor& out, IntList dims,
                     bool keepdim)
        : GradNode(name)
        , m_input(input)
        , m_output(out, true)
        , m_dims(reducedDims(dims, input.dim()))
        , m_keepdim(keepdim) {}

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor x = m_input.unpack(*this);
        Tensor y = spreadOver(m_output.unpack(*this), m_dims, m_keepdim, x.sizes());
        Tensor mask = toDType(binary(BinaryOp::Eq, x, y), x.dtype());
        Tensor count = sum(mask, m_dims, true);
        Tensor g = spreadOver(grads[0], m_dims, m_keepdim, x.sizes());
        return {binary(BinaryOp::Div, binary(BinaryOp::Mul, g, mask), count)};
    }

    void releaseSaved() override {
        m_input.release();
        m_output.release();
    }

private:
    SavedTensor m_input;
    SavedTensor m_output;
    std::vector<int64_t> m_dims;
    bool m_keepdim;
};

/// max(dim)/min(dim): the gradient goes to the position the index names.
class IndexedExtremumBackward final : public GradNode {
public:
    IndexedExtremumBackward(std::string_view name, const Tensor& input, const Tensor& indices,
                            int64_t dim, bool keepdim)
        : GradNode(name)
        , m_sizes(input.sizes())
        , m_dtype(input.dtype())
        , m_indices(indices)
        , m_dim(input.dim() == 0 ? 0 : wrapDim(dim, input.dim()))
        , m_keepdim(keepdim) {}

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor index = m_indices.unpack(*this);
        Tensor g = toDType(grads[0], m_dtype);
        if (m_sizes.empty()) return {g};
        if (!m_keepdim) {
            index = unsqueeze(index, m_dim);
            g = unsqueeze(g, m_dim);
        }
        Tensor zeros = tensor::zeros(m_sizes, {m_dtype, g.device()});
        return {scatter(zeros, m_dim, index, g, ScatterReduce::None, true, "max")};
    }

    void releaseSaved() override { m_indices.release(); }

private:
    DimVector m_sizes;
    DType m_dtype;
    SavedTensor m_indices;
    int64_t m_dim;
    bool m_keepdim;
};

/// var: g * 2 (x - mean) / (N - correction); std: that over 2 std.
class VarianceBackward final : public GradNode {
public:
    VarianceBackward(std::string_view name, const Tensor& input, const Tensor& out, IntList dims,
                     double correction, bool keepdim, bool sqrt)
        : GradNode(name)
        , m_input(input)
        , m_output(sqrt ? SavedTensor(out, true) : SavedTensor())
        , m_dims(reducedDims(dims, input.dim()))
        , m_correction(correction)
        , m_keepdim(keepdim) {}
    void releaseSaved() override {
        m_input.release();
        m_output.release();
    }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor x = m_input.unpack(*this);
        double count = 1;
        for (int64_t d : m_dims)
            count *= double(x.sizes()[static_cast<size_t>(d)]);
        Tensor centered = binary(BinaryOp::Sub, x, mean(x, m_dims, true));
        Tensor g = spreadOver(grads[0], m_dims, m_keepdim, x.sizes());
        Tensor scale = wrapNumber(Scalar(2.0 / std::max(0.0, count - m_correction)));
        Tensor grad = binary(BinaryOp::Mul, binary(BinaryOp::Mul, g, centered), scale);
        if (m_output.defined()) {
            Tensor twiceStd =
                binary(BinaryOp::Mul, m_output.unpack(*this), wrapNumber(Scalar(2.0)));
            grad = binary(BinaryOp::Div, grad, spreadOver(twiceStd, m_dims, m_keepdim, x.sizes()));
        }
        return {toDType(grad, x.dtype())};
    }

private:
    SavedTensor m_input;
    SavedTensor m_output;
    std::vector<int64_t> m_dims;
    double m_correction;
    bool m_keepdim;
};

/// The transpose of a matrix or of each matrix of a batch.
Tensor mT(const Tensor& t) {
    return transpose(t, -2, -1);
}

Tensor scaled(const Tensor& t, Scalar s) {
    if (s.toDouble() == 1.0) return t;
    return binary(BinaryOp::Mul, t, wrapNumber(s));
}

/// mm, bmm, mv, dot and addmm: out = beta * bias + alpha * (a @ b).
class ProductBackward final : public GradNode {
public:
    enum class Kind { Mm, Bmm, Mv, Dot, Addmm };

    ProductBackward(std::string_view name, Kind kind, const Tensor* bias, const Tensor& a,
                    const Tensor& b, Scalar beta, Scalar alpha)
        : GradNode(name)
        , m_kind(kind)
        , m_biasSizes(bias ? bias->sizes() : DimVector())
        , m_a(a)
        , m_b(b)
        , m_beta(beta)
        , m_alpha(alpha) {}

    void releaseSaved() override {
        m_a.release();
        m_b.release();
    }

    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const Tensor g = scaled(grads[0], m_alpha);
        const size_t first = m_kind == Kind::Addmm ? 1 : 0;
        std::vector<Tensor> out(first + 2);
        if (m_kind == Kind::Addmm && wants(0))
            out[0] = sumToSize(scaled(grads[0], m_beta), m_biasSizes);
        Tensor a = m_a.unpack(*this), b = m_b.unpack(*this);
        if (wants(first)) out[first] = toDType(gradA(g, b), a.dtype());
        if (wants(first + 1)) out[first + 1] = toDType(gradB(g, a), b.dtype());
        return out;
    }

private:
    bool wants(size_t i) const { return i < next.size() && next[i].node; }

    Tensor gradA(const Tensor& g, const Tensor& b) const {
        switch (m_kind) {
        case Kind::Mv:
            return outer(g, b);
        case Kind::Dot:
            return binary(BinaryOp::Mul, b, g);
        default:
            return matmul(g, mT(b));
        }
    }
    Tensor gradB(const Tensor& g, const Tensor& a) const {
        switch (m_kind) {
        case Kind::Mv:
            return matmul(t(a), g);
        case Kind::Dot:
            return binary(BinaryOp::Mul, a, g);
        default:
            return matmul(mT(a), g);
        }
    }

    Kind m_kind;
    DimVector m_biasSizes;
    SavedTensor m_a;
    SavedTensor m_b;
    Scalar m_beta;
    Scalar m_alpha;
};

/// clone, contiguous, .to(dtype): the gradient itself, in the input's dtype.
class CopyBackward final : public GradNode {
public:
    CopyBackward(std::string_view name, DType inputDType)
        : GradNode(name)
        , m_dtype(inputDType) {}
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        return {toDType(grads[0], m_dtype)};
    }

private:
    DType m_dtype;
};

/// softmax: g_x = y * (g - sum(g * y)); log_softmax: g_x = g - exp(y) * sum(g), over `dim`.
class SoftmaxBackward final : public GradNode {
public:
    SoftmaxBackward(std::string_view name, bool log, const Tensor& input, const Tensor& out,
                    int64_t dim)
        : GradNode(name)
        , m_log(log)
        , m_dim(dim)
        , m_dtype(input.dtype())
        , m_out(out, true) {}
    void releaseSaved() override { m_out.release(); }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        const Tensor& g = grads[0];
        Tensor y = m_out.unpack(*this);
        const int64_t dims[] = {m_dim};
        Tensor gx =
            m_log ? binary(BinaryOp::Sub, g,
                           binary(BinaryOp::Mul, unary(UnaryOp::Exp, y), sum(g, dims, true)))
                  : binary(BinaryOp::Mul, y,
                           binary(BinaryOp::Sub, g, sum(binary(BinaryOp::Mul, g, y), dims, true)));
        return {toDType(gx, m_dtype)};
    }

private:
    bool m_log;
    int64_t m_dim;
    DType m_dtype;
    SavedTensor m_out;
};

/// mse_loss: 2 (input - target) g, divided by the count for 'mean'; -that for the target.
class MseLossBackward final : public GradNode {
public:
    MseLossBackward(std::string_view name, const Tensor& input, const Tensor& target, bool mean)
        : GradNode(name)
        , m_input(input)
        , m_target(target)
        , m_mean(mean) {}
    void releaseSaved() override {
        m_input.release();
        m_target.release();
    }
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        Tensor x = m_input.unpack(*this), t = m_target.unpack(*this);
        Tensor diff = binary(BinaryOp::Sub, x, t);
        double scale = 2.0 / (m_mean ? double(std::max<int64_t>(diff.numel(), 1)) : 1.0);
        Tensor gx =
            binary(BinaryOp::Mul, binary(BinaryOp::Mul, diff, grads[0]), wrapNumber(Scalar(scale)));
        std::vector<Tensor> out(2);
        if (next.size() > 0 && next[0].node) out[0] = toDType(sumToSize(gx, x.sizes()), x.dtype());
        if (next.size() > 1 && next[1].node)
            out[1] = toDType(sumToSize(unary(UnaryOp::Neg, gx), t.sizes()), t.dtype());
        return out;
    }

private:
    SavedTensor m_input;
    SavedTensor m_target;
    bool m_mean;
};

} // namespace

void attachVarianceDerivative(Tensor& out, const Tensor& input, IntList dims, double correction,
                              bool keepdim, bool sqrt) {
    if (!out.gradNode()) return;
    attachDerivative(
        out, makeRef<VarianceBackward>(out.gradFn(), input, out, dims, correction, keepdim, sqrt));
}

void attachSoftmaxDerivative(Tensor& out, bool log, const Tensor& input, int64_t dim) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<SoftmaxBackward>(out.gradFn(), log, input, out, dim));
}

void attachMseLossDerivative(Tensor& out, const Tensor& input, const Tensor& target, bool mean) {
    if (!out.gradNode()) return; // 'sum' and 'none' differ only in the gradient's shape
    attachDerivative(out, makeRef<MseLossBackward>(out.gradFn(), input, target, mean));
}

void attachCopyDerivative(Tensor& out, const Tensor& input) {
    // A copy to another device needs its gradient moved back: not yet (it stays unimplemented).
    if (!out.gradNode() || !(out.device() == input.device())) return;
    attachDerivative(out, makeRef<CopyBackward>(out.gradFn(), input.dtype()));
}

void attachViewDerivative(Tensor& view, std::string_view name, const Tensor& input) {
    const bool isView = view.storage() == input.storage();
    if (view.gradNode()) {
        auto mode = name == "ExpandBackward0" ? ViewBackward::Mode::Expand
                    : isView                  ? ViewBackward::Mode::Scatter
                                              : ViewBackward::Mode::Reshape;
        attachDerivative(view, makeRef<ViewBackward>(name, mode, input, view));
    }
    if (isView) recordViewBase(view, input); // after its node: an in-place write then rebases
}

void attachReductionDerivative(Tensor& out, std::string_view name, const Tensor& input,
                               IntList dims, bool keepdim, bool mean) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<ReductionBackward>(name, input, dims, keepdim, mean));
}

void attachFactorDerivative(Tensor& out, const Tensor& factor, IntList dims, bool keepdim) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<FactorBackward>(out.gradFn(), factor, dims, keepdim));
}

void attachExtremumDerivative(Tensor& out, const Tensor& input, IntList dims, bool keepdim) {
    if (!out.gradNode()) return;
    attachDerivative(out, makeRef<ExtremumBackward>(out.gradFn(), input, out, dims, keepdim));
}

void attachIndexedExtremumDerivative(Tensor& values, const Tensor& input, const Tensor& indices,
                                     int64_t dim, bool keepdim) {
    if (!values.gradNode()) return;
    attachDerivative(
        values, makeRef<IndexedExtremumBackward>(values.gradFn(), input, indices, dim, keepdim));
}

void attachProductDerivative(Tensor& out, std::string_view name, ProductKind kind,
                             const Tensor* bias, const Tensor& a, const Tensor& b, Scalar beta,
                             Scalar alpha) {
    if (!out.gradNode()) return;
    using K = ProductBackward::Kind;
    K k = kind == ProductKind::Mm    ? K::Mm
          : kind == ProductKind::Bmm ? K::Bmm
          : kind == ProductKind::Mv  ? K::Mv
          : kind == ProductKind::Dot ? K::Dot
                                     : K::Addmm;
    attachDerivative(out, makeRef<ProductBackward>(name, k, bias, a, b, beta, alpha));
}

} // namespace kiln::tensor
