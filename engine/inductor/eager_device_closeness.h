// SPDX-License-Identifier: MIT
/// \file
/// torch.isclose, torch.allclose and torch.equal on CUDA tensors, composed of eager device ops
/// (each a cached single-op kernel): |a - b| <= atol + rtol * |b| or a == b (infinities), and
/// NaN against NaN when equal_nan; allclose and equal reduce that with all() and read the one
/// boolean back. A mismatch of dtypes is PyTorch's RuntimeError ("Float did not match Double").
#pragma once

#include "lang/device_ops.h"

#include <optional>

namespace kiln::inductor {

/// The call's result when it is isclose, allclose or equal (function or method); else nullopt.
std::optional<lang::Value> runDeviceCloseness(lang::Interpreter& interp,
                                              const lang::DeviceOpCall& call);

} // namespace kiln::inductor
