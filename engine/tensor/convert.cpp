// SPDX-License-Identifier: MIT
#include "tensor/convert.h"

#include "tensor/device_transfer.h"
#include "tensor/error.h"
#include "tensor/iterate.h"
#include "tensor/shape.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

namespace kiln::tensor {

void copyInto(const Tensor& dst, const Tensor& src) {
    if (!dst.device().isCpu() || !src.device().isCpu()) [[unlikely]] {
        copyIntoThroughHost(dst, src);
        return;
    }
    if (src.dim() > dst.dim() || broadcastShapes(dst.sizes(), src.sizes()) != dst.sizes())
        failRuntime("output with shape " + shapeString(dst.sizes()) +
                    " doesn't match the broadcast shape " +
                    shapeString(broadcastShapes(dst.sizes(), src.sizes())));
    DimVector srcStrides = broadcastStrides(src, dst.sizes());
    if (dst.numel() == 0) return;
    auto g = makeLoopGeometry<2>(dst.sizes(), {IntList(dst.strides()), IntList(srcStrides)},
                                 {itemSize(dst.dtype()), itemSize(src.dtype())});
    std::array<char*, 2> base{dst.rawData(), src.rawData()};
    // A copy within one storage keeps memmove's order: its ranges may overlap.
    const bool parallel = dst.storage().get() != src.storage().get();
    // A transposing copy goes tile by tile, so that neither side streams through memory with a
    // stride of a whole row.
    const bool tiled =
        parallel && innerDimsTransposed(g, {itemSize(dst.dtype()), itemSize(src.dtype())});
    auto run = [&](auto&& fn) {
        if (tiled)
            forEachRunTiled(g, base, fn);
        else if (parallel)
            forEachRunParallel(g, base, fn);
        else
            forEachRun(g, base, fn);
    };
    if (dst.dtype() == src.dtype()) {
        // Elements move as integers of their width: a strided copy is then a load and a store
        // per element rather than a call of memcpy.
        auto copyAs = [&]<typename Word>() {
            run([](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n) {
                if (s[0] == int64_t(sizeof(Word)) && s[1] == int64_t(sizeof(Word))) {
                    std::memmove(p[0], p[1], static_cast<size_t>(n) * sizeof(Word));
                    return;
                }
                for (int64_t i = 0; i < n; ++i) {
                    Word w;
                    std::memcpy(&w, p[1] + i * s[1], sizeof(Word));
                    std::memcpy(p[0] + i * s[0], &w, sizeof(Word));
                }
            });
        };
        switch (itemSize(dst.dtype())) {
        case 1:
            copyAs.template operator()<uint8_t>();
            break;
        case 2:
            copyAs.template operator()<uint16_t>();
            break;
        case 4:
            copyAs.template operator()<uint32_t>();
            break;
        default:
            copyAs.template operator()<uint64_t>();
            break;
        }
        return;
    }
    dispatchDType(dst.dtype(), [&]<DType DO>() {
        dispatchDType(src.dtype(), [&]<DType DI>() {
            using TO = CType<DO>;
            using TI = CType<DI>;
            run([](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n) {
                unaryRun<TO, TI>(p, s, n, [](TI v) { return castValue<TO>(v); });
            });
        });
    });
}

Tensor contiguous(const Tensor& t) {
    if (t.isContiguous()) return t;
    return clone(t);
}

Tensor clone(const Tensor& t) {
    // A device tensor's copy goes through the host and back to the same device's memory.
    if (!t.device().isCpu())
        return copyFromHost(contiguous(copyToHost(t)), t.storage()->allocator());
    Tensor out = Tensor::empty(t.sizes(), t.dtype(), t.device());
    copyInto(out, t);
    return out;
}

Tensor toDType(const Tensor& t, DType dtype, bool copy) {
    if (t.dtype() == dtype && !copy) return t;
    Tensor out = Tensor::empty(t.sizes(), dtype, t.device());
    copyInto(out, t);
    return out;
}

Scalar readScalar(const char* ptr, DType dtype) {
    return dispatchDType(dtype, [&]<DType D>() -> Scalar {
        using T = CType<D>;
        T v;
        std::memcpy(&v, ptr, sizeof(T));
        if constexpr (std::is_same_v<T, bool>)
            return Scalar(v);
        else if constexpr (std::is_integral_v<T>)
            return Scalar(static_cast<int64_t>(v));
        else
            return Scalar(static_cast<double>(static_cast<ComputeType<T>>(v)));
    });
}

void writeScalar(char* ptr, DType dtype, Scalar value) {
    dispatchDType(dtype, [&]<DType D>() {
        using T = CType<D>;
        T v;
        if (value.isFloat())
            v = castValue<T>(value.toDouble());
        else if (value.isBool())
            v = castValue<T>(value.toBool());
        else
            v = castValue<T>(value.toInt());
        std::memcpy(ptr, &v, sizeof(T));
    });
}

Scalar item(const Tensor& t) {
    if (t.numel() != 1)
        failRuntime("a Tensor with " + std::to_string(t.numel()) +
                    " elements cannot be converted to Scalar");
    // A device tensor's value comes over to the host first (PyTorch's .item() synchronises too).
    if (!t.device().isCpu()) return item(copyToHost(t));
    return readScalar(t.rawData(), t.dtype());
}

Tensor scalarTensor(Scalar value, DType dtype) {
    Tensor out = Tensor::empty({}, dtype);
    writeScalar(out.rawData(), dtype, value);
    return out;
}

Tensor wrapNumber(Scalar value) {
    DType dtype = value.isBool() ? DType::Bool : value.isInt() ? DType::Int64 : DType::Float64;
    Tensor out = scalarTensor(value, dtype);
    out.impl()->wrappedNumber = true;
    return out;
}

namespace {

std::string_view cTypeName(DType dtype) {
    switch (dtype) {
    case DType::UInt8:
        return "uint8_t";
    case DType::Int8:
        return "int8_t";
    case DType::Int16:
        return "int16_t";
    case DType::Int32:
        return "int";
    default:
        return "int64_t";
    }
}

template <typename T>
bool overflows(Scalar value) {
    using Limits = std::numeric_limits<T>;
    if (value.isBool()) return false;
    if (value.isFloat()) {
        double f = value.toDouble();
        return std::isnan(f) || f < static_cast<double>(Limits::lowest()) ||
               f > static_cast<double>(Limits::max());
    }
    int64_t v = value.toInt();
    if constexpr (std::is_unsigned_v<T>)
        return v > static_cast<int64_t>(Limits::max()) ||
               (v < 0 && -static_cast<uint64_t>(v) > Limits::max());
    else
        return v < static_cast<int64_t>(Limits::min()) || v > static_cast<int64_t>(Limits::max());
}

} // namespace

void checkScalarFits(Scalar value, DType dtype, TypeNaming naming) {
    if (!isIntegral(dtype, false)) return;
    bool outside = dispatchDType(dtype, [&]<DType D>() {
        using T = CType<D>;
        if constexpr (std::is_integral_v<T>)
            return overflows<T>(value);
        else
            return false;
    });
    if (!outside) return;
    std::string_view name = naming == TypeNaming::CType ? cTypeName(dtype) : dtypeName(dtype);
    failRuntime("value cannot be converted to type " + std::string(name) + " without overflow");
}

void fill(const Tensor& t, Scalar value) {
    checkScalarFits(value, t.dtype());
    copyInto(t, scalarTensor(value, t.dtype()));
}

} // namespace kiln::tensor
