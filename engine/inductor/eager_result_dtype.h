// SPDX-License-Identifier: MIT
/// \file
/// The dtype an eager op returns, for the single-op graphs of the eager device ops. Captured
/// graphs carry it in each node's metadata (the tracer ran the op); a single-op graph is built
/// before the op ran, so it is worked out here the way PyTorch's ops decide it: an explicit
/// dtype argument, a cast's target, bool for comparisons and predicates, int64 for index
/// results and integer sums, and otherwise torch.result_type over the operands (Python numbers
/// as wrapped numbers), lifted to the default float for ops that only compute in floating point.
#pragma once

#include "lang/device_ops.h"
#include "tensor/dtype.h"

namespace kiln::inductor {

tensor::DType eagerResultDtype(lang::Interpreter& interp, const lang::DeviceOpCall& call);

} // namespace kiln::inductor
