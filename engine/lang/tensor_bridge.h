// SPDX-License-Identifier: MIT
/// \file
/// Where interpreter values meet tensors: Python numbers as tensor operands, Python index
/// expressions (ints, slices, None, Ellipsis, bools, lists, tensors) as tensor indices, and the
/// tensor side of the arithmetic and comparison operators. Kept in one place because the
/// capture layer will route exactly these operations into graphs.
#pragma once

#include "lang/interpreter.h"
#include "tensor/ops.h"

namespace kiln::lang {

struct SliceBounds {
    int64_t start = 0, stop = 0, step = 1, length = 0;
};

/// Python's slice.indices(length) with its errors.
SliceBounds computeSlice(Interpreter& interp, const SliceObject& s, int64_t length);
/// An int, bool, integer 0-dim tensor, or object with __index__; nullopt otherwise.
std::optional<int64_t> asIndex(Interpreter& interp, const Value& v);

/// A Python number as a Scalar; nullopt for other values.
std::optional<tensor::Scalar> asScalar(const Value& v);
/// A tensor operand: the tensor itself, or a Python number wrapped for type promotion.
/// Raises TypeError for other values.
tensor::Tensor asTensorOperand(Interpreter& interp, const Value& v, const char* opSymbol,
                               const Value& other);

/// t[key] and t[key] = value through the trace recorder when tracing (what the interpreter's
/// subscripts use); tensorGetItem/tensorSetItem below do the work.
Value tensorItem(Interpreter& interp, const Value& object, const Value& key);
void tensorAssignItem(Interpreter& interp, const Value& object, const Value& key,
                      const Value& value);
/// t[key] and t[key] = value.
tensor::Tensor tensorGetItem(Interpreter& interp, const tensor::Tensor& t, const Value& key);
void tensorSetItem(Interpreter& interp, const tensor::Tensor& t, const Value& key,
                   const Value& value);

/// a op b where at least one side is a tensor; Empty when the other side is not usable (the
/// caller then reports the unsupported operand types).
Value tensorBinary(Interpreter& interp, BinaryOperator op, const Value& a, const Value& b,
                   bool inPlace);
Value tensorCompare(Interpreter& interp, CompareOperator op, const Value& a, const Value& b);
Value tensorUnary(Interpreter& interp, UnaryOperator op, const tensor::Tensor& t);
/// A value (number, nested list of numbers, tensor) as a tensor, for torch.tensor and index
/// lists; dtype inferred like torch.tensor when not given.
tensor::Tensor tensorFromValue(Interpreter& interp, const Value& v,
                               std::optional<tensor::DType> dtype);

/// warnings.warn(message) (a UserWarning), attributed to the script line running: what
/// PyTorch's TORCH_WARN shows in Python.
void warnUser(Interpreter& interp, const std::string& message);
/// A uint8 tensor used as a mask (an index, where's condition) as PyTorch 2.3 takes it: as a
/// bool tensor of its non-zero elements, with its deprecation warning. Other tensors as given.
tensor::Tensor legacyByteMask(Interpreter& interp, const tensor::Tensor& mask,
                              const std::string& warning);

} // namespace kiln::lang
