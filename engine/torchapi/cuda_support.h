// SPDX-License-Identifier: MIT
/// \file
/// What the torch bindings share about CUDA: the check that a GPU is there before a tensor is
/// put on one (PyTorch raises at that point too), and device defaults.
#pragma once

#include "lang/interpreter.h"
#include "tensor/device.h"
#include "tensor/random.h"

namespace kiln::torchapi {

/// RuntimeError "no CUDA device was found: <why>" unless a usable CUDA device exists.
void requireCuda(lang::Interpreter& interp);

/// `device` with a CUDA index filled in (cuda -> cuda:0) after requireCuda; the CPU as it is.
tensor::Device cudaResolved(lang::Interpreter& interp, tensor::Device device);

/// Where factories put tensors when a script names no device (`kiln run --device`).
tensor::Device defaultFactoryDevice();
void setDefaultFactoryDevice(tensor::Device device);

/// The generator of random tensors made on CUDA devices (torch.cuda.manual_seed). They are
/// drawn on the host and copied until in-kernel RNG exists.
tensor::Generator& cudaGenerator();

/// Fills the torch.cuda module.
void installCudaModule(lang::Interpreter& interp, lang::ModuleObject& cuda);

} // namespace kiln::torchapi
