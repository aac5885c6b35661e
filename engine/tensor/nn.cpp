// SPDX-License-Identifier: MIT
// torch.nn.functional building blocks: layer_norm (one fused pass per row), gelu, dropout,
// embedding and one_hot. The losses live in loss.cpp, attention in attention.cpp.
#include "tensor/autograd.h"
#include "tensor/error.h"
#include "tensor/iterate.h"
#include "tensor/op_support.h"
#include "tensor/ops.h"
#include "tensor/random.h"
#include "tensor/reduce_util.h"
#include "tensor/shape.h"

#include <charconv>
#include <cmath>
#include <string>

namespace kiln::tensor {

namespace {

void checkLayerNormParam(const std::optional<Tensor>& param, const char* name, IntList shape) {
    if (param && !(param->sizes() == DimVector(shape)))
        failRuntime(std::string("Expected ") + name +
                    " to be of same shape as normalized_shape, but got " + name + " of shape " +
                    shapeString(param->sizes()) + " and normalized_shape = " + shapeString(shape));
}

void checkLayerNormArgs(const Tensor& x, IntList shape, const std::optional<Tensor>& weight,
                        const std::optional<Tensor>& bias) {
    if (shape.empty())
        failRuntime("Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                    "least one element, but got normalized_shape = []");
    checkLayerNormParam(weight, "weight", shape);
    checkLayerNormParam(bias, "bias", shape);
    const int64_t lead = x.dim() - static_cast<int64_t>(shape.size());
    bool matches = lead >= 0;
    for (size_t i = 0; matches && i < shape.size(); ++i)
        matches = x.sizes()[lead + static_cast<int64_t>(i)] == shape[i];
    if (!matches) {
        std::string expected = shapeString(shape);
        failRuntime("Given normalized_shape=" + expected + ", expected input with shape [*, " +
                    expected.substr(1) + ", but got input of size" + shapeString(x.sizes()));
    }
    if (!isFloating(x.dtype()))
        fail(ErrorKind::NotImplementedError, "\"LayerNormKernelImpl\" not implemented for '" +
                                                 std::string(dtypeLegacyName(x.dtype())) + "'");
    // Parameters match the input's dtype, or are float32 for a 16-bit input (mixed precision).
    for (const std::optional<Tensor>* p : {&weight, &bias}) {
        bool lowPrecision = x.dtype() == DType::Float16 || x.dtype() == DType::BFloat16;
        if (*p && (*p)->dtype() != x.dtype() && !(lowPrecision && (*p)->dtype() == DType::Float32))
            failRuntime("mixed dtype (CPU): expect parameter to have scalar type of " +
                        std::string(dtypeLegacyName(x.dtype())));
    }
}

/// The squared distances of values from their mean, summed in double (detail::foldRun's
/// independent lanes).
template <typename T>
struct SquaredDeviation {
    using Acc = double;
    double mean;
    Acc identity() const { return 0.0; }
    Acc map(T x) const {
        const double d = static_cast<double>(x) - mean;
        return d * d;
    }
    Acc combine(Acc a, Acc b) const { return a + b; }
};

/// Normalises each row of `n` elements: mean and variance in double, then one rounding.
template <typename T>
void layerNormRows(const T* x, T* y, int64_t rows, int64_t n, const double* w, const double* b,
                   double eps) {
    for (int64_t r = 0; r < rows; ++r, x += n, y += n) {
        const char* row = reinterpret_cast<const char*>(x);
        const double mean = detail::foldRun<T>(detail::SumAsDouble<T>{}, row, sizeof(T), n) /
                            static_cast<double>(n);
        const double var = detail::foldRun<T>(SquaredDeviation<T>{mean}, row, sizeof(T), n);
        const double rstd = 1.0 / std::sqrt(var / static_cast<double>(n) + eps);
        for (int64_t i = 0; i < n; ++i) {
            double v = (static_cast<double>(x[i]) - mean) * rstd;
            y[i] = static_cast<T>(
                static_cast<ComputeType<T>>(v * (w ? w[i] : 1.0) + (b ? b[i] : 0.0)));
        }
    }
}

/// A parameter as contiguous doubles (empty when absent).
std::vector<double> paramValues(const std::optional<Tensor>& p) {
    if (!p) return {};
    Tensor c = contiguous(toDType(*p, DType::Float64));
    return std::vector<double>(c.data<double>(), c.data<double>() + c.numel());
}

} // namespace

Tensor layerNorm(const Tensor& x, IntList normalizedShape, const std::optional<Tensor>& weight,
                 const std::optional<Tensor>& bias, double eps) {
    checkLayerNormArgs(x, normalizedShape, weight, bias);
    const int64_t n = checkedNumel(normalizedShape);
    const int64_t rows = n == 0 ? 0 : x.numel() / n;
    Tensor xc = contiguous(x);
    Tensor out = Tensor::empty(x.sizes(), x.dtype());
    std::vector<double> w = paramValues(weight), b = paramValues(bias);
    dispatchDType(x.dtype(), [&]<DType D>() {
        using T = CType<D>;
        if constexpr (!std::is_integral_v<T>)
            parallelFor(rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1)),
                        [&](int64_t begin, int64_t end) {
                            layerNormRows<T>(xc.data<T>() + begin * n, out.data<T>() + begin * n,
                                             end - begin, n, weight ? w.data() : nullptr,
                                             bias ? b.data() : nullptr, eps);
                        });
    });
    recordGradFn(out, "NativeLayerNormBackward0",
                 {&x, weight ? &*weight : nullptr, bias ? &*bias : nullptr});
    attachLayerNormDerivative(out, x, weight, bias, static_cast<int64_t>(normalizedShape.size()),
                              eps);
    return out;
}

Tensor gelu(const Tensor& x, const std::string& approximate) {
    if (approximate != "none" && approximate != "tanh")
        failRuntime("approximate argument must be either none or tanh.");
    return unary(approximate == "tanh" ? UnaryOp::GeluTanh : UnaryOp::Gelu, x);
}

namespace {

/// A Python float as repr() writes it ("1.5", "-0.1", "2.0").
std::string pythonFloat(double v) {
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, end);
    if (s.find_first_of(".en") == std::string::npos) s += ".0";
    return s;
}

/// A Bernoulli(1 - p) mask drawn from `gen`, scaled by 1 / (1 - p): the noise torch's CPU
/// dropout multiplies its input by (in the input's dtype).
template <typename T>
void dropoutNoise(T* noise, int64_t n, double p, Generator& gen) {
    using C = ComputeType<T>;
    const T scale = static_cast<T>(C(1) / static_cast<C>(1.0 - p));
    for (int64_t i = 0; i < n; ++i)
        noise[i] = gen.uniform() < 1.0 - p ? scale : T(C(0));
}

} // namespace

Tensor dropout(const Tensor& x, double p, bool training, Generator& gen) {
    if (!(p >= 0.0 && p <= 1.0))
        fail(ErrorKind::ValueError,
             "dropout probability has to be between 0 and 1, but got " + pythonFloat(p));
    if (!training || p == 0.0) return x;
    if (!isFloating(x.dtype()))
        failRuntime("result type Float can't be cast to the desired output type " +
                    std::string(dtypeLegacyName(x.dtype())));
    if (p == 1.0) return binary(BinaryOp::Mul, x, scalarTensor(Scalar(0.0), x.dtype()));
    Tensor noise = Tensor::empty(x.sizes(), x.dtype());
    dispatchDType(x.dtype(), [&]<DType D>() {
        using T = CType<D>;
        if constexpr (!std::is_integral_v<T>) dropoutNoise<T>(noise.data<T>(), x.numel(), p, gen);
    });
    // x * noise, as torch's CPU dropout: a MulBackward0 node that saved the noise.
    return binary(BinaryOp::Mul, x, noise);
}

Tensor embedding(const Tensor& weight, const Tensor& indices, std::optional<int64_t> paddingIdx) {
    // padding_idx only changes the gradient; the lookup itself is the same.
    if (weight.dim() != 2) failRuntime("'weight' must be 2-D");
    if (indices.dtype() != DType::Int64 && indices.dtype() != DType::Int32)
        failRuntime("Expected tensor for argument #1 'indices' to have one of the following "
                    "scalar types: Long, Int; but got torch." +
                    std::string(dtypeLegacyName(indices.dtype())) +
                    "Tensor instead (while checking arguments for embedding)");
    Tensor flat = reshape(indices, DimVector{indices.numel()});
    Tensor wide = toDType(flat, DType::Int64);
    const int64_t rows = weight.sizes()[0];
    for (int64_t i = 0; i < wide.numel(); ++i) {
        int64_t v = wide.data<int64_t>()[i * wide.strides()[0]];
        if (v < 0 || v >= rows) fail(ErrorKind::IndexError, "index out of range in self");
    }
    DimVector shape = indices.sizes();
    shape.push_back(weight.sizes()[1]);
    Tensor out;
    {
        GradModeGuard noGrad(false);
        out = contiguous(reshape(indexSelect(weight, 0, flat), shape));
    }
    recordGradFn(out, "EmbeddingBackward0", {&weight});
    attachEmbeddingDerivative(out, weight, indices, paddingIdx);
    return out;
}

Tensor oneHot(const Tensor& indices, int64_t numClasses) {
    if (indices.dtype() != DType::Int64)
        failRuntime("one_hot is only applicable to index tensor of type LongTensor.");
    Tensor values = contiguous(indices);
    const int64_t* v = values.data<int64_t>();
    const int64_t n = values.numel();
    if (n == 0 && numClasses == -1)
        failRuntime("Can not infer total number of classes from empty tensor.");
    int64_t lo = 0, hi = -1;
    for (int64_t i = 0; i < n; ++i) {
        lo = i == 0 ? v[i] : std::min(lo, v[i]);
        hi = std::max(hi, v[i]);
    }
    if (n > 0 && lo < 0) failRuntime("Class values must be non-negative.");
    if (numClasses == -1)
        numClasses = hi + 1;
    else if (n > 0 && hi >= numClasses)
        failRuntime("Class values must be smaller than num_classes.");
    DimVector shape = indices.sizes();
    shape.push_back(numClasses);
    Tensor out = zeros(shape, TensorOptions{DType::Int64});
    int64_t* o = out.data<int64_t>();
    for (int64_t i = 0; i < n; ++i)
        o[i * numClasses + v[i]] = 1;
    return out;
}

} // namespace kiln::tensor
