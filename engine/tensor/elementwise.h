// SPDX-License-Identifier: MIT
/// \file
/// Internal to the tensor library: the plumbing the pointwise and reduction kernels share.
///
/// An elementwise op reads each input in one dtype (the op's compute dtype) at one loop shape
/// (the broadcast shape). LoopInput prepares an input for that without copying when it already
/// has the dtype, and without allocating when it is a broadcast scalar (the common `x + 1`):
/// the one value is converted into an inline buffer and read with stride 0. run{Unary,Binary,
/// Ternary} then drive the loops of iterate.h over an output tensor.
#pragma once

#include "tensor/convert.h"
#include "tensor/iterate.h"
#include "tensor/op_support.h"
#include "tensor/tensor.h"

#include <string>
#include <string_view>
#include <type_traits>

namespace kiln::tensor::detail {

class LoopInput {
public:
    LoopInput(const Tensor& t, DType dtype, IntList shape);
    LoopInput(const LoopInput&) = delete;
    LoopInput& operator=(const LoopInput&) = delete;

    char* data() const { return m_data; }
    IntList strides() const { return m_strides; }
    /// Every loop position reads the same element (a 0-dim tensor, a number, an expand).
    bool isScalar() const { return m_isScalar; }
    /// That element in float precision before rounding to the compute dtype: PyTorch's 16-bit
    /// float add/sub/mul/div use a scalar operand at this precision.
    float scalarAsFloat() const { return m_scalarFloat; }

private:
    Tensor m_converted;
    char* m_data = nullptr;
    DimVector m_strides;
    bool m_isScalar = false;
    float m_scalarFloat = 0.0f;
    alignas(8) char m_scalar[8] = {};
};

/// out[i] = fn(a[i]) over out's shape (out may be any strided tensor), split over the threads
/// for large tensors: fn must be a pure function of its arguments.
template <typename TO, typename TA, typename Fn>
void runUnary(const Tensor& out, const LoopInput& a, Fn&& fn) {
    auto g = makeLoopGeometry<2>(out.sizes(), {IntList(out.strides()), a.strides()},
                                 {int64_t(sizeof(TO)), int64_t(sizeof(TA))});
    forEachRunParallel(g, {out.rawData(), a.data()},
               [&](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n) {
                   unaryRun<TO, TA>(p, s, n, fn);
               });
}

/// run(pointers, byteStrides, n) over each run of out[i] = f(a[i]): for kernels that take a
/// whole run at a time (the vectorised functions of vec_math.h). Split over the threads.
template <typename TO, typename TA, typename RunFn>
void runUnaryRuns(const Tensor& out, const LoopInput& a, RunFn&& run) {
    auto g = makeLoopGeometry<2>(out.sizes(), {IntList(out.strides()), a.strides()},
                                 {int64_t(sizeof(TO)), int64_t(sizeof(TA))});
    forEachRunParallel(g, {out.rawData(), a.data()}, run);
}

template <typename TO, typename TA, typename TB, typename Fn>
void runBinary(const Tensor& out, const LoopInput& a, const LoopInput& b, Fn&& fn) {
    auto g = makeLoopGeometry<3>(out.sizes(), {IntList(out.strides()), a.strides(), b.strides()},
                                 {int64_t(sizeof(TO)), int64_t(sizeof(TA)), int64_t(sizeof(TB))});
    forEachRunParallel(g, {out.rawData(), a.data(), b.data()},
               [&](std::array<char*, 3> p, std::array<int64_t, 3> s, int64_t n) {
                   binaryRun<TO, TA, TB>(p, s, n, fn);
               });
}

template <typename TO, typename TA, typename TB, typename TC, typename Fn>
void runTernary(const Tensor& out, const LoopInput& a, const LoopInput& b, const LoopInput& c,
                Fn&& fn) {
    auto g = makeLoopGeometry<4>(
        out.sizes(), {IntList(out.strides()), a.strides(), b.strides(), c.strides()},
        {int64_t(sizeof(TO)), int64_t(sizeof(TA)), int64_t(sizeof(TB)), int64_t(sizeof(TC))});
    forEachRunParallel(g, {out.rawData(), a.data(), b.data(), c.data()},
               [&](std::array<char*, 4> p, std::array<int64_t, 4> s, int64_t n) {
                   ternaryRun<TO, TA, TB, TC>(p, s, n, fn);
               });
}

/// An integer type other than bool.
template <typename C>
inline constexpr bool kIsInteger = std::is_integral_v<C> && !std::is_same_v<C, bool>;

/// fn(a, b) for + - *: integers wrap around (two's complement) as in PyTorch, computed on the
/// unsigned type so that C++ sees no signed overflow.
template <typename C, typename Fn>
C wrapping(C a, C b, Fn fn) {
    if constexpr (kIsInteger<C>) {
        using U = std::make_unsigned_t<C>;
        return static_cast<C>(fn(static_cast<U>(a), static_cast<U>(b)));
    } else {
        return static_cast<C>(fn(a, b));
    }
}

/// torch.can_cast: no floating to integral, nothing but bool to bool.
bool canCast(DType from, DType to);
/// RuntimeError "result type Float can't be cast to the desired output type Long".
void checkCanCastResult(DType result, DType out);
/// The checks PyTorch makes before writing into `out` in place: a leaf that requires grad
/// cannot be modified while grad mode is on, and the result must broadcast to out's shape.
void checkInPlaceTarget(const Tensor& out, IntList resultShape);
/// The C++ type name PyTorch prints for a dtype in some messages ("float", "long int").
std::string_view typeMetaName(DType dtype);
/// NotImplementedError `"kernel" not implemented for 'Float'`.
[[noreturn]] void failNotImplementedFor(std::string_view kernel, DType dtype);

/// A double as C++ streams print it in PyTorch's messages ("1", "0.5", "inf").
std::string formatDouble(double value);
/// The output of an elementwise op over `inputs` (broadcast to `shape`): dense, with its
/// dimensions in the memory order of the inputs as PyTorch's TensorIterator orders them (the
/// first input that decides wins, broadcast dimensions never decide), so `x.t() + 1` is laid
/// out like `x.t()`. Contiguous when every input is.
Tensor allocateElementwiseOutput(IntList shape, DType dtype,
                                 std::initializer_list<const Tensor*> inputs);
/// A new tensor for a factory (zeros, randn, ...) with requires_grad as asked; RuntimeError
/// for requires_grad on a non-floating dtype as PyTorch.
Tensor allocateForFactory(IntList sizes, const TensorOptions& options);

} // namespace kiln::tensor::detail
