// SPDX-License-Identifier: MIT
/// \file
/// Shape arithmetic shared by the ops: broadcasting with PyTorch's error messages, strides of a
/// tensor expanded to a broadcast shape, and textual forms of shapes for messages.
#pragma once

#include "tensor/tensor.h"

#include <string>

namespace kiln::tensor {

/// The broadcast of two shapes; RuntimeError "The size of tensor a (3) must match the size of
/// tensor b (4) at non-singleton dimension 1" when they do not broadcast.
DimVector broadcastShapes(IntList a, IntList b);
/// Element strides of `t` viewed at `shape` (which `t` broadcasts to): 0 on broadcast dims.
DimVector broadcastStrides(const Tensor& t, IntList shape);
/// "[2, 3]" as PyTorch writes shapes in messages.
std::string shapeString(IntList sizes);
/// "torch.Size([2, 3])".
std::string torchSizeString(IntList sizes);

} // namespace kiln::tensor
