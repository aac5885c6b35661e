// SPDX-License-Identifier: MIT
// Statistical reductions: var/std (Welford, merging per-run two-pass moments with Chan's
// formula), vector norms and logsumexp.
#include "tensor/autograd.h"
#include "tensor/elementwise.h"
#include "tensor/error.h"
#include "tensor/ops.h"
#include "tensor/reduce_util.h"

#include <cmath>
#include <limits>
#include <string>

namespace kiln::tensor {

using detail::dispatchFloating;
using detail::foldRun;
using detail::reduceWith;
using detail::reductionMask;
using detail::SumAsDouble;

namespace {

struct Moments {
    double mean = 0.0;
    double m2 = 0.0; ///< sum of squared deviations from mean
    double count = 0.0;
};

template <typename T>
struct SquaredDeviation {
    using Acc = double;
    double mean;
    Acc identity() const { return 0.0; }
    Acc map(T x) const {
        double d = double(ComputeType<T>(x)) - mean;
        return d * d;
    }
    Acc combine(Acc a, Acc b) const { return a + b; }
};

template <typename T, bool Sqrt>
struct VarianceOp {
    using Acc = Moments;
    using Out = T;
    double correction;

    Acc identity() const { return {}; }
    Acc map(T x) const { return {double(ComputeType<T>(x)), 0.0, 1.0}; }
    Acc combine(const Acc& a, const Acc& b) const {
        if (a.count == 0) return b;
        if (b.count == 0) return a;
        double count = a.count + b.count;
        double delta = b.mean - a.mean;
        return {a.mean + delta * (b.count / count),
                a.m2 + b.m2 + delta * delta * (a.count * b.count / count), count};
    }
    /// A whole run at once: two passes give the exact moments of the run.
    Acc reduceRun(const char* p, int64_t stride, int64_t n) const {
        double mean = foldRun<T>(SumAsDouble<T>{}, p, stride, n) / double(n);
        double m2 = foldRun<T>(SquaredDeviation<T>{mean}, p, stride, n);
        return {mean, m2, double(n)};
    }
    Out finalize(const Acc& a) const {
        double variance = a.m2 / std::max(0.0, a.count - correction);
        return castValue<Out>(Sqrt ? std::sqrt(variance) : variance);
    }
};

template <bool Sqrt>
Tensor varianceOf(const Tensor& a, IntList dims, double correction, bool keepdim) {
    if (!isFloating(a.dtype()))
        fail(ErrorKind::NotImplementedError,
             "std and var only support floating point and complex dtypes");
    uint64_t mask = reductionMask(dims, a.dim());
    Tensor out = dispatchFloating(a.dtype(), [&]<DType D>() {
        using T = CType<D>;
        return reduceWith<T>(a, mask, keepdim, VarianceOp<T, Sqrt>{correction});
    });
    recordGradFn(out, Sqrt ? "StdBackward0" : "VarBackward0", {&a});
    attachVarianceDerivative(out, a, dims, correction, keepdim, Sqrt);
    return out;
}

} // namespace

Tensor var(const Tensor& a, IntList dims, double correction, bool keepdim) {
    return varianceOf<false>(a, dims, correction, keepdim);
}

Tensor std(const Tensor& a, IntList dims, double correction, bool keepdim) {
    return varianceOf<true>(a, dims, correction, keepdim);
}

namespace {

enum class NormKind { Zero, One, Two, Inf, NegInf, General };

template <typename T, NormKind K>
struct NormOp {
    using Acc = double;
    using Out = T;
    double p;

    Acc identity() const {
        return K == NormKind::NegInf ? std::numeric_limits<double>::infinity() : 0.0;
    }
    Acc map(T x) const {
        double v = std::abs(double(ComputeType<T>(x)));
        if constexpr (K == NormKind::Zero)
            return v != 0.0 ? 1.0 : 0.0; // NaN counts as non-zero
        else if constexpr (K == NormKind::Two)
            return v * v;
        else if constexpr (K == NormKind::General)
            return std::pow(v, p);
        else
            return v;
    }
    Acc combine(Acc a, Acc b) const {
        if constexpr (K == NormKind::Inf)
            return (a != a || a > b) ? a : b;
        else if constexpr (K == NormKind::NegInf)
            return (a != a || a < b) ? a : b;
        else
            return a + b;
    }
    Out finalize(Acc a) const {
        if constexpr (K == NormKind::Two)
            return castValue<Out>(std::sqrt(a));
        else if constexpr (K == NormKind::General)
            return castValue<Out>(std::pow(a, 1.0 / p));
        else
            return castValue<Out>(a);
    }
};

NormKind normKind(double p) {
    if (p == 0) return NormKind::Zero;
    if (p == 1) return NormKind::One;
    if (p == 2) return NormKind::Two;
    if (std::isinf(p)) return p > 0 ? NormKind::Inf : NormKind::NegInf;
    return NormKind::General;
}

/// max and min have no identity, so PyTorch refuses infinity norms over empty dims.
void checkInfinityNormDims(const Tensor& a, double p, uint64_t mask, bool dimsGiven) {
    const std::string prefix =
        std::string("linalg.vector_norm cannot compute the ") + (p > 0 ? "inf" : "-inf") + " norm ";
    const char* suffix = "the operation does not have an identity";
    if (!dimsGiven && a.numel() == 0) failRuntime(prefix + "on an empty tensor because " + suffix);
    for (int64_t d = 0; d < a.dim(); ++d)
        if ((mask >> d & 1) && a.sizes()[d] == 0) // PyTorch's message lacks the space
            failRuntime(prefix + "on the dimension " + std::to_string(d) +
                        "because this dimension is empty and " + suffix);
}

template <NormKind K>
Tensor normWith(const Tensor& a, double p, uint64_t mask, bool keepdim) {
    return dispatchFloating(a.dtype(), [&]<DType D>() {
        using T = CType<D>;
        return reduceWith<T>(a, mask, keepdim, NormOp<T, K>{p});
    });
}

} // namespace

Tensor norm(const Tensor& a, double p, IntList dims, bool keepdim) {
    if (!isFloating(a.dtype()))
        fail(ErrorKind::NotImplementedError,
             "linalg.vector_norm: Expected a floating point or complex tensor as input. Got " +
                 std::string(dtypeLegacyName(a.dtype())));
    uint64_t mask = reductionMask(dims, a.dim());
    Tensor out;
    switch (normKind(p)) {
    case NormKind::Zero:
        out = normWith<NormKind::Zero>(a, p, mask, keepdim);
        break;
    case NormKind::One:
        out = normWith<NormKind::One>(a, p, mask, keepdim);
        break;
    case NormKind::Two:
        out = normWith<NormKind::Two>(a, p, mask, keepdim);
        break;
    case NormKind::Inf:
        checkInfinityNormDims(a, p, mask, !dims.empty());
        out = normWith<NormKind::Inf>(a, p, mask, keepdim);
        break;
    case NormKind::NegInf:
        checkInfinityNormDims(a, p, mask, !dims.empty());
        out = normWith<NormKind::NegInf>(a, p, mask, keepdim);
        break;
    case NormKind::General:
        out = normWith<NormKind::General>(a, p, mask, keepdim);
        break;
    }
    recordGradFn(out, "LinalgVectorNormBackward0", {&a});
    attachNormDerivative(out, a, p, dims, keepdim);
    return out;
}

Tensor logsumexp(const Tensor& a, IntList dims, bool keepdim) {
    Tensor out, softmax;
    {
        // PyTorch's composite: shift by the max (0 where the max is infinite) for stability.
        detail::NoGradGuard noGrad;
        Tensor x = isFloating(a.dtype()) ? a : toDType(a, defaultFloatDType());
        if (x.numel() == 0) {
            out = unary(UnaryOp::Log, sum(unary(UnaryOp::Exp, x), dims, keepdim));
        } else {
            Tensor maxes = amax(x, dims, true);
            maxes = maskedFill(maxes, unary(UnaryOp::IsInf, maxes), wrapNumber(Scalar(0.0)));
            Tensor total = sum(unary(UnaryOp::Exp, binary(BinaryOp::Sub, x, maxes)), dims, keepdim);
            Tensor shift = keepdim ? maxes : detail::dropDims(maxes, reductionMask(dims, x.dim()));
            out = binary(BinaryOp::Add, unary(UnaryOp::Log, total), shift);
        }
    }
    recordGradFn(out, "LogsumexpBackward0", {&a});
    if (out.gradNode()) {
        // d logsumexp / dx = exp(x - logsumexp): the softmax over the reduced dims.
        detail::NoGradGuard noGrad;
        Tensor lse = out;
        const uint64_t mask = reductionMask(dims, a.dim());
        for (int64_t d = 0; d < a.dim() && !keepdim; ++d)
            if ((mask >> d) & 1) lse = unsqueeze(lse, d);
        softmax = unary(UnaryOp::Exp, binary(BinaryOp::Sub, a, lse));
        attachFactorDerivative(out, softmax, dims, keepdim);
    }
    return out;
}

} // namespace kiln::tensor
