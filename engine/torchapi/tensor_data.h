// SPDX-License-Identifier: MIT
/// \file
/// torch.tensor's conversion of Python data (numbers, nested sequences, one-element tensors)
/// into a tensor, shared by torch.tensor, torch.as_tensor and Tensor.new_tensor.
#pragma once

#include "torchapi/bindings.h"

namespace kiln::torchapi {

/// The data as a new tensor; the dtype is inferred as torch.tensor infers it when not given.
Tensor tensorFromData(Interpreter& interp, const Value& data, std::optional<tensor::DType> dtype);

} // namespace kiln::torchapi
