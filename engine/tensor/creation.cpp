// SPDX-License-Identifier: MIT
// Factories: zeros/ones/full, arange and linspace with PyTorch's size and value arithmetic,
// eye, tril/triu and torch.tensor(data).
#include "support/assert.h"
#include "tensor/autograd.h"
#include "tensor/elementwise.h"
#include "tensor/error.h"
#include "tensor/ops.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace kiln::tensor {

namespace {

void fillZero(const Tensor& t) {
    // An empty tensor has no storage: memset of its null pointer is undefined even for 0 bytes.
    const auto bytes = static_cast<size_t>(t.numel() * itemSize(t.dtype()));
    if (bytes) std::memset(t.rawData(), 0, bytes);
}

} // namespace

Tensor zeros(IntList sizes, const TensorOptions& options) {
    for (int64_t s : sizes)
        if (s < 0) failRuntime("zeros: Dimension size must be non-negative.");
    Tensor out = detail::allocateForFactory(sizes, options);
    fillZero(out);
    return out;
}

Tensor ones(IntList sizes, const TensorOptions& options) {
    return full(sizes, Scalar(int64_t(1)), options);
}

Tensor full(IntList sizes, Scalar value, const TensorOptions& options) {
    Tensor out = detail::allocateForFactory(sizes, options);
    fill(out, value);
    return out;
}

namespace {

void checkArangeRange(Scalar start, Scalar end, Scalar step) {
    const double xstart = start.toDouble(), xend = end.toDouble(), xstep = step.toDouble();
    if (!(xstep > 0 || xstep < 0)) failRuntime("step must be nonzero");
    if (!std::isfinite(xstart) || !std::isfinite(xend))
        failRuntime("unsupported range: " + detail::formatDouble(xstart) + " -> " +
                    detail::formatDouble(xend));
    if (!((xstep > 0 && xend >= xstart) || (xstep < 0 && xend <= xstart)))
        failRuntime("upper bound and lower bound inconsistent with step sign");
}

/// ceil((end - start) / step), exactly in integers when all three are integers.
int64_t arangeSize(Scalar start, Scalar end, Scalar step) {
    if (start.isIntegral() && end.isIntegral() && step.isIntegral()) {
        const int64_t xstep = step.toInt();
        const int64_t sign = xstep > 0 ? 1 : -1;
        return (end.toInt() - start.toInt() + xstep - sign) / xstep;
    }
    double size = std::ceil((end.toDouble() - start.toDouble()) / step.toDouble());
    if (!(size >= 0 && size <= static_cast<double>(std::numeric_limits<int64_t>::max())))
        failRuntime("invalid size, possible overflow?");
    return static_cast<int64_t>(size);
}

} // namespace

Tensor arange(Scalar start, Scalar end, Scalar step, std::optional<DType> dtype) {
    const bool integral = start.isIntegral() && end.isIntegral() && step.isIntegral();
    const DType type = dtype.value_or(integral ? DType::Int64 : defaultFloatDType());
    if (type == DType::Bool) detail::failNotImplementedFor("arange_cpu", type);
    checkArangeRange(start, end, step);
    Tensor out = Tensor::empty(DimVector{arangeSize(start, end, step)}, type);
    dispatchDType(type, [&]<DType D>() {
        using T = CType<D>;
        // PyTorch computes start + i * step in the accumulate type: int64 for integers,
        // double for float32/float64, float for the 16-bit floats.
        using Acc = std::conditional_t<
            std::is_integral_v<T>, int64_t,
            std::conditional_t<std::is_same_v<T, double> || std::is_same_v<T, float>, double,
                               float>>;
        const Acc xstart = start.to<Acc>(), xstep = step.to<Acc>();
        T* o = out.data<T>();
        for (int64_t i = 0; i < out.numel(); ++i)
            o[i] = castValue<T>(Acc(xstart + Acc(i) * xstep));
    });
    return out;
}

Tensor linspace(double start, double end, int64_t steps, const TensorOptions& options) {
    if (steps < 0) failRuntime("number of steps must be non-negative");
    Tensor out = detail::allocateForFactory(DimVector{steps}, options);
    if (steps == 1) {
        fill(out, Scalar(start));
        return out;
    }
    dispatchDType(options.dtype, [&]<DType D>() {
        using T = CType<D>;
        // As PyTorch: the step in float precision (double for double and the integers), the
        // first half counted up from start and the second half down from end so both ends are
        // exact; floating values with one fused multiply-add as PyTorch's vectorised kernel.
        using Step = std::conditional_t<std::is_integral_v<T>, double, ComputeType<T>>;
        const Step first = Step(ComputeType<T>(castValue<T>(start)));
        const Step last = Step(ComputeType<T>(castValue<T>(end)));
        const Step step = (last - first) / Step(steps - 1);
        const int64_t halfway = steps / 2;
        T* o = out.data<T>();
        for (int64_t i = 0; i < steps; ++i) {
            const bool up = i < halfway;
            const Step count = Step(up ? i : steps - i - 1);
            Step v;
            if constexpr (std::is_integral_v<T>)
                v = up ? first + step * count : last - step * count;
            else
                v = up ? std::fma(step, count, first) : std::fma(-step, count, last);
            o[i] = castValue<T>(v);
        }
    });
    return out;
}

Tensor eye(int64_t n, int64_t m, const TensorOptions& options) {
    if (n < 0) failRuntime("n must be greater or equal to 0, got " + std::to_string(n));
    if (m < 0) failRuntime("m must be greater or equal to 0, got " + std::to_string(m));
    Tensor out = detail::allocateForFactory(DimVector{n, m}, options);
    fillZero(out);
    const int64_t item = itemSize(options.dtype);
    for (int64_t i = 0; i < std::min(n, m); ++i)
        writeScalar(out.rawData() + (i * m + i) * item, options.dtype, Scalar(int64_t(1)));
    return out;
}

namespace {

template <bool Lower>
Tensor triangle(const Tensor& a, int64_t diagonal);

/// tril/triu's gradient is the same triangle of the output's gradient.
template <bool Lower>
class TriangleBackward final : public GradNode {
public:
    explicit TriangleBackward(int64_t diagonal)
        : GradNode(Lower ? "TrilBackward0" : "TriuBackward0")
        , m_diagonal(diagonal) {}
    std::vector<Tensor> apply(std::vector<Tensor> grads) override {
        return {triangle<Lower>(contiguous(grads[0]), m_diagonal)};
    }

private:
    int64_t m_diagonal;
};

/// tril (Lower) / triu: zero the elements of every matrix on the wrong side of `diagonal`.
template <bool Lower>
Tensor triangle(const Tensor& a, int64_t diagonal) {
    if (a.dim() < 2)
        failRuntime(std::string(Lower ? "tril" : "triu") +
                    ": input tensor must have at least 2 dimensions");
    Tensor out = clone(a);
    const int64_t rows = a.size(-2), cols = a.size(-1);
    const int64_t matrices = rows * cols == 0 ? 0 : out.numel() / (rows * cols);
    const int64_t item = itemSize(a.dtype());
    char* data = out.rawData();
    for (int64_t b = 0; b < matrices; ++b) {
        for (int64_t i = 0; i < rows; ++i) {
            // Lower keeps j <= i + diagonal; upper keeps j >= i + diagonal.
            int64_t from = Lower ? std::clamp<int64_t>(i + diagonal + 1, 0, cols) : 0;
            int64_t to = Lower ? cols : std::clamp<int64_t>(i + diagonal, 0, cols);
            char* row = data + ((b * rows + i) * cols) * item;
            std::memset(row + from * item, 0, static_cast<size_t>((to - from) * item));
        }
    }
    recordGradFn(out, Lower ? "TrilBackward0" : "TriuBackward0", {&a});
    if (out.gradNode()) attachDerivative(out, makeRef<TriangleBackward<Lower>>(diagonal));
    return out;
}

} // namespace

Tensor tril(const Tensor& a, int64_t diagonal) {
    return triangle<true>(a, diagonal);
}

Tensor triu(const Tensor& a, int64_t diagonal) {
    return triangle<false>(a, diagonal);
}

Tensor fromScalars(const std::vector<Scalar>& values, IntList sizes, DType dtype) {
    Tensor out = Tensor::empty(sizes, dtype);
    KILN_ASSERT(static_cast<int64_t>(values.size()) == out.numel(),
                "fromScalars needs one value per element");
    const int64_t item = itemSize(dtype);
    for (size_t i = 0; i < values.size(); ++i)
        writeScalar(out.rawData() + static_cast<int64_t>(i) * item, dtype, values[i]);
    return out;
}

} // namespace kiln::tensor
