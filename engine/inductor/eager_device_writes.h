// SPDX-License-Identifier: MIT
/// \file
/// The eager GPU ops that only write into a tensor, `zero_` and `fill_`, and the write of an
/// in-place op's result into its target (`x[:, 1:3].mul_(2)`, `x += y`). A dense target is
/// written on the device (a memset of the value's bytes, a device-to-device copy); any other
/// layout or a dtype conversion goes through host memory: correct, and slow, as
/// tensor::copyIntoThroughHost says. (`copy_` is device-neutral: tensor::copyInto between any
/// two devices, through host memory.)
#pragma once

#include "lang/device_ops.h"

#include <optional>

namespace kiln::inductor {

/// zero_ / fill_ of a CUDA tensor: the target, after the write; nullopt for any other call.
std::optional<lang::Value> runDeviceWrite(lang::Interpreter& interp,
                                          const lang::DeviceOpCall& call);

/// An in-place op's `result` written into `target` (its first operand). RuntimeError, with
/// PyTorch's words, when the result does not fit: another shape (a broadcast the target cannot
/// hold), or a dtype the target's cannot hold (a floating result for an integer target).
lang::Value writeResultInto(lang::Interpreter& interp, const lang::Value& target,
                            const lang::Value& result);

} // namespace kiln::inductor
