// SPDX-License-Identifier: MIT
#include "tensor/vec_math.h"

namespace kiln::tensor::detail {

const VecMathKernels& vecMathKernels(CpuIsa isa) {
    switch (isa) {
    case CpuIsa::Avx512:
        return vecMathAvx512();
    case CpuIsa::Avx2:
        return vecMathAvx2();
    case CpuIsa::Baseline:
        break;
    }
    return vecMathBaseline();
}

const VecMathKernels& vecMath() {
    static const VecMathKernels& active = vecMathKernels(activeIsa());
    return active;
}

const VecReduceKernels& vecReduceKernels(CpuIsa isa) {
    switch (isa) {
    case CpuIsa::Avx512:
        return vecReduceAvx512();
    case CpuIsa::Avx2:
        return vecReduceAvx2();
    case CpuIsa::Baseline:
        break;
    }
    return vecReduceBaseline();
}

const VecReduceKernels& vecReduce() {
    static const VecReduceKernels& active = vecReduceKernels(activeIsa());
    return active;
}

std::optional<VecMath> vecMathFor(UnaryOp op) {
    using enum UnaryOp;
    switch (op) {
    case Exp:
        return VecMath::Exp;
    case Sigmoid:
        return VecMath::Sigmoid;
    case Silu:
        return VecMath::Silu;
    case Sin:
        return VecMath::Sin;
    case Cos:
        return VecMath::Cos;
    case Tan:
        return VecMath::Tan;
    case Tanh:
        return VecMath::Tanh;
    case Erf:
        return VecMath::Erf;
    case Erfc:
        return VecMath::Erfc;
    case Log:
        return VecMath::Log;
    case Log2:
        return VecMath::Log2;
    case Log10:
        return VecMath::Log10;
    case Log1p:
        return VecMath::Log1p;
    case Expm1:
        return VecMath::Expm1;
    case Exp2:
        return VecMath::Exp2;
    case Asin:
        return VecMath::Asin;
    case Acos:
        return VecMath::Acos;
    case Atan:
        return VecMath::Atan;
    case Sinh:
        return VecMath::Sinh;
    case Cosh:
        return VecMath::Cosh;
    case Gelu:
        return VecMath::Gelu;
    case GeluTanh:
        return VecMath::GeluTanh;
    default:
        return std::nullopt;
    }
}

} // namespace kiln::tensor::detail
