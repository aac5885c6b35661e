// SPDX-License-Identifier: MIT
/// \file
/// The shorthands the derivative formulas (derivatives_*.cpp) are written in.
#pragma once

#include "tensor/convert.h"
#include "tensor/grad_node.h"
#include "tensor/ops.h"

namespace kiln::tensor::derivative {

inline Tensor num(double v) {
    return wrapNumber(Scalar(v));
}
inline Tensor mul(const Tensor& a, const Tensor& b) {
    return binary(BinaryOp::Mul, a, b);
}
inline Tensor div(const Tensor& a, const Tensor& b) {
    return binary(BinaryOp::Div, a, b);
}
inline Tensor add(const Tensor& a, const Tensor& b) {
    return binary(BinaryOp::Add, a, b);
}
inline Tensor sub(const Tensor& a, const Tensor& b) {
    return binary(BinaryOp::Sub, a, b);
}
/// Whether the node's input `input` wants a gradient (its edge leads somewhere).
inline bool wanted(const GradNode& node, size_t input) {
    return input < node.next.size() && node.next[input].node;
}

} // namespace kiln::tensor::derivative
