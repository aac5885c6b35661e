// SPDX-License-Identifier: MIT
/// \file
/// CUDA tensors: creating them, moving tensors to and from a device, and the device address
/// of a tensor for kernels (Tensor::devicePointer). Eager CPU kernels never see these: the
/// torch bindings refuse device operands at dispatch, and Tensor::rawData as the last line.
#pragma once

#include "runtime/caching_allocator.h"
#include "tensor/tensor.h"

namespace kiln::runtime {

/// An uninitialised contiguous tensor on CUDA device `device` (out of memory: TensorError of
/// kind OutOfMemoryError; no GPU: RuntimeError "no CUDA device was found: ...").
tensor::Tensor emptyCuda(tensor::IntList sizes, tensor::DType dtype, int device = 0);

/// `t` on `device` (cpu, cuda, cuda:N): `t` itself when it is there already, else a copy
/// keeping its sizes and, when dense, its strides. A device index of -1 means the current
/// device (0).
tensor::Tensor toDevice(const tensor::Tensor& t, tensor::Device device);

/// The address of a CUDA tensor's first element, for kernel arguments.
DevicePtr devicePointer(const tensor::Tensor& t);

/// The device index torch.cuda uses when none is given (torch.cuda.current_device()).
int currentCudaDevice();

} // namespace kiln::runtime
