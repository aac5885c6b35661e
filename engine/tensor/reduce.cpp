// SPDX-License-Identifier: MIT
// The basic reductions over a set of dims: sum, mean, prod, amax/amin, max/min of all elements,
// all/any. Floating sums accumulate in double, integer ones in 64 bits with wrap-around.
#include "tensor/autograd.h"
#include "tensor/elementwise.h"
#include "tensor/error.h"
#include "tensor/ops.h"
#include "tensor/reduce_util.h"
#include "tensor/vec_math.h"

#include <limits>
#include <string>

namespace kiln::tensor {

using detail::kIsFloatingStorage;
using detail::reduceWith;
using detail::reductionMask;

namespace {

/// Floating values accumulate in double, integers and bools in wrapping 64-bit integers.
template <typename T>
using WideAcc = std::conditional_t<kIsFloatingStorage<T>, double, uint64_t>;
/// sum/prod of integers and bools is int64; floating dtypes keep theirs.
template <typename T>
using WideOut = std::conditional_t<kIsFloatingStorage<T>, T, int64_t>;

template <typename T>
constexpr bool kVectorised = std::is_same_v<T, float> || std::is_same_v<T, double>;

/// A dense run's sum in double through the vectorised kernels (vec_math.h), else the fold.
template <typename T, typename Op>
double sumRun(const Op& op, const char* p, int64_t stride, int64_t n) {
    if constexpr (kVectorised<T>) {
        if (stride == int64_t(sizeof(T))) {
            const detail::VecReduceKernels& k = detail::vecReduce();
            if constexpr (std::is_same_v<T, float>)
                return k.sumFloat(reinterpret_cast<const float*>(p), n);
            else
                return k.sumDouble(reinterpret_cast<const double*>(p), n);
        }
    }
    return detail::foldRun<T>(op, p, stride, n);
}

/// acc[i] += x[i] over a dense run of kept positions, vectorised for float and double.
template <typename T>
void accumulateDense(double* acc, const char* x, int64_t n) {
    if constexpr (std::is_same_v<T, float>)
        detail::vecReduce().accumulateFloat(acc, reinterpret_cast<const float*>(x), n);
    else
        detail::vecReduce().accumulateDouble(acc, reinterpret_cast<const double*>(x), n);
}

template <typename T>
struct SumOp {
    using Acc = WideAcc<T>;
    using Out = WideOut<T>;
    Acc identity() const { return Acc(0); }
    Acc map(T x) const { return Acc(ComputeType<T>(x)); }
    Acc combine(Acc a, Acc b) const { return a + b; }
    Out finalize(Acc a) const { return castValue<Out>(a); }
    Acc reduceRun(const char* p, int64_t stride, int64_t n) const requires kVectorised<T> {
        return sumRun<T>(*this, p, stride, n);
    }
    void accumulateRun(Acc* acc, const char* x, int64_t n) const requires kVectorised<T> {
        accumulateDense<T>(acc, x, n);
    }
};

template <typename T>
struct ProdOp {
    using Acc = WideAcc<T>;
    using Out = WideOut<T>;
    Acc identity() const { return Acc(1); }
    Acc map(T x) const { return Acc(ComputeType<T>(x)); }
    Acc combine(Acc a, Acc b) const { return a * b; }
    Out finalize(Acc a) const { return castValue<Out>(a); }
};

template <typename T>
struct MeanOp {
    using Acc = double;
    using Out = T;
    double count;
    Acc identity() const { return 0.0; }
    Acc map(T x) const { return double(ComputeType<T>(x)); }
    Acc combine(Acc a, Acc b) const { return a + b; }
    Out finalize(Acc a) const { return castValue<Out>(a / count); }
    Acc reduceRun(const char* p, int64_t stride, int64_t n) const requires kVectorised<T> {
        return sumRun<T>(*this, p, stride, n);
    }
    void accumulateRun(Acc* acc, const char* x, int64_t n) const requires kVectorised<T> {
        accumulateDense<T>(acc, x, n);
    }
};

/// max (Largest) or min of values; NaN wins as in PyTorch.
template <typename T, bool Largest>
struct ExtremeOp {
    using Acc = ComputeType<T>;
    using Out = T;
    Acc identity() const {
        if constexpr (std::is_same_v<Acc, bool>)
            return !Largest;
        else if constexpr (std::is_floating_point_v<Acc>)
            return Largest ? -std::numeric_limits<Acc>::infinity()
                           : std::numeric_limits<Acc>::infinity();
        else
            return Largest ? std::numeric_limits<Acc>::lowest() : std::numeric_limits<Acc>::max();
    }
    Acc map(T x) const { return Acc(x); }
    /// Branch-free so the lanes vectorise: a NaN in a is kept (nothing compares greater),
    /// a NaN in b is taken.
    Acc combine(Acc a, Acc b) const { return ((Largest ? b > a : b < a) | (b != b)) ? b : a; }
    Out finalize(Acc a) const { return Out(a); }
    Acc reduceRun(const char* p, int64_t stride, int64_t n) const requires kVectorised<T> {
        if (stride != int64_t(sizeof(T))) return detail::foldRun<T>(*this, p, stride, n);
        const detail::VecReduceKernels& k = detail::vecReduce();
        const T* x = reinterpret_cast<const T*>(p);
        if constexpr (std::is_same_v<T, float>)
            return Largest ? k.maxFloat(x, n) : k.minFloat(x, n);
        else
            return Largest ? k.maxDouble(x, n) : k.minDouble(x, n);
    }
};

template <typename T, bool All>
struct LogicalOp {
    using Acc = bool;
    using Out = bool;
    Acc identity() const { return All; }
    Acc map(T x) const { return ComputeType<T>(x) != ComputeType<T>(0); }
    Acc combine(Acc a, Acc b) const { return All ? (a && b) : (a || b); }
    Out finalize(Acc a) const { return a; }
};

/// Reduces with the op OpT<T> for a's element type T.
template <template <typename> class OpT, typename... Args>
Tensor reduceAnyType(const Tensor& a, uint64_t mask, bool keepdim, Args... args) {
    return dispatchDType(a.dtype(), [&]<DType D>() {
        using T = CType<D>;
        return reduceWith<T>(a, mask, keepdim, OpT<T>{args...});
    });
}

template <typename T>
using MaxOp = ExtremeOp<T, true>;
template <typename T>
using MinOp = ExtremeOp<T, false>;
template <typename T>
using AllOp = LogicalOp<T, true>;
template <typename T>
using AnyOp = LogicalOp<T, false>;

/// Integer sums accumulate into int64; an explicit dtype argument is what the result keeps.
Tensor keepRequestedDType(const Tensor& out, std::optional<DType> dtype) {
    return dtype ? toDType(out, *dtype) : out;
}

void recordReduction(Tensor& out, const Tensor& a, bool dimsGiven, const char* allName,
                     const char* dimName) {
    recordGradFn(out, dimsGiven ? dimName : allName, {&a});
}

} // namespace

Tensor sum(const Tensor& a, IntList dims, bool keepdim, std::optional<DType> dtype) {
    Tensor x = dtype ? toDType(a, *dtype) : a;
    Tensor out =
        keepRequestedDType(reduceAnyType<SumOp>(x, reductionMask(dims, x.dim()), keepdim), dtype);
    recordReduction(out, a, !dims.empty(), "SumBackward0", "SumBackward1");
    attachReductionDerivative(out, out.gradFn(), a, dims, keepdim, false);
    return out;
}

Tensor prod(const Tensor& a, IntList dims, bool keepdim, std::optional<DType> dtype) {
    Tensor x = dtype ? toDType(a, *dtype) : a;
    Tensor out =
        keepRequestedDType(reduceAnyType<ProdOp>(x, reductionMask(dims, x.dim()), keepdim), dtype);
    recordReduction(out, a, !dims.empty(), "ProdBackward0", "ProdBackward1");
    attachProdDerivative(out, a, dims, keepdim);
    return out;
}

Tensor mean(const Tensor& a, IntList dims, bool keepdim, std::optional<DType> dtype) {
    if (dtype && !isFloating(*dtype))
        fail(ErrorKind::NotImplementedError,
             "mean(): could not infer output dtype. Optional dtype must be either a floating "
             "point or complex dtype. Got: " +
                 std::string(dtypeLegacyName(*dtype)));
    if (!dtype && !isFloating(a.dtype()))
        fail(ErrorKind::NotImplementedError,
             "mean(): could not infer output dtype. Input dtype must be either a floating point "
             "or complex dtype. Got: " +
                 std::string(dtypeLegacyName(a.dtype())));
    Tensor x = dtype ? toDType(a, *dtype) : a;
    uint64_t mask = reductionMask(dims, x.dim());
    double count = double(detail::makeReduceLayout(x, mask).reducedCount);
    Tensor out = detail::dispatchFloating(x.dtype(), [&]<DType D>() {
        using T = CType<D>;
        return reduceWith<T>(x, mask, keepdim, MeanOp<T>{count});
    });
    recordReduction(out, a, !dims.empty(), "MeanBackward0", "MeanBackward1");
    attachReductionDerivative(out, out.gradFn(), a, dims, keepdim, true);
    return out;
}

Tensor amax(const Tensor& a, IntList dims, bool keepdim) {
    uint64_t mask = reductionMask(dims, a.dim());
    detail::checkNonEmptyReduction(a, mask, !dims.empty(), "amax", false);
    Tensor out = reduceAnyType<MaxOp>(a, mask, keepdim);
    recordGradFn(out, "AmaxBackward0", {&a});
    attachExtremumDerivative(out, a, dims, keepdim);
    return out;
}

Tensor amin(const Tensor& a, IntList dims, bool keepdim) {
    uint64_t mask = reductionMask(dims, a.dim());
    detail::checkNonEmptyReduction(a, mask, !dims.empty(), "amin", false);
    Tensor out = reduceAnyType<MinOp>(a, mask, keepdim);
    recordGradFn(out, "AminBackward0", {&a});
    attachExtremumDerivative(out, a, dims, keepdim);
    return out;
}

Tensor maxAll(const Tensor& a) {
    detail::checkNonEmptyReduction(a, 0, false, "max", false);
    Tensor out = reduceAnyType<MaxOp>(a, reductionMask({}, a.dim()), false);
    recordGradFn(out, "MaxBackward1", {&a});
    attachExtremumDerivative(out, a, {}, false);
    return out;
}

Tensor minAll(const Tensor& a) {
    detail::checkNonEmptyReduction(a, 0, false, "min", false);
    Tensor out = reduceAnyType<MinOp>(a, reductionMask({}, a.dim()), false);
    recordGradFn(out, "MinBackward1", {&a});
    attachExtremumDerivative(out, a, {}, false);
    return out;
}

namespace {

DimVector optionalDim(std::optional<int64_t> dim) {
    return dim ? DimVector{*dim} : DimVector{};
}

/// all/any of a uint8 tensor are uint8 (0 or 1): PyTorch keeps that from the days of byte
/// masks. Of any other dtype, bool.
Tensor truthOfByte(const Tensor& a, Tensor result) {
    return a.dtype() == DType::UInt8 ? toDType(result, DType::UInt8) : result;
}

} // namespace

Tensor all(const Tensor& a, std::optional<int64_t> dim, bool keepdim) {
    return truthOfByte(a,
                       reduceAnyType<AllOp>(a, reductionMask(optionalDim(dim), a.dim()), keepdim));
}

Tensor any(const Tensor& a, std::optional<int64_t> dim, bool keepdim) {
    return truthOfByte(a,
                       reduceAnyType<AnyOp>(a, reductionMask(optionalDim(dim), a.dim()), keepdim));
}

} // namespace kiln::tensor
