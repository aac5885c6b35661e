// SPDX-License-Identifier: MIT
/// \file
/// The device checks every eager op makes before it runs (the torch bindings call them once per
/// op, at dispatch): all tensor operands on one device, as PyTorch demands, and no device
/// tensor reaching a CPU kernel. Tensor::rawData refuses device memory as the last line.
#pragma once

#include "tensor/tensor.h"

#include <span>
#include <string_view>

namespace kiln::tensor {

/// PyTorch's RuntimeError "Expected all tensors to be on the same device, but found at least
/// two devices, cuda:0 and cpu!" when the operands are on different devices. 0-dim CPU tensors
/// may accompany device tensors (PyTorch moves such scalars along). Returns the device the op
/// runs on (the CPU when there are no tensors).
Device commonDevice(std::span<const Tensor> operands);

/// NotImplementedError for an op that has no kernel for `device`'s type; `why` says what is
/// missing (empty: no eager kernels for that device at all).
[[noreturn]] void failNoDeviceKernel(std::string_view op, Device device, std::string_view why = {});

} // namespace kiln::tensor
