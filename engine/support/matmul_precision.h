// SPDX-License-Identifier: MIT
/// \file
/// torch.set_float32_matmul_precision / torch.backends.cuda.matmul.allow_tf32: whether float32
/// matrix products on the GPU may use TF32 tensor cores. Process-wide, as in PyTorch; the torch
/// bindings set it, the GPU matrix products (cuBLASLt) read it.
#pragma once

#include <string>

namespace kiln {

enum class Float32MatmulPrecision { Highest, High, Medium };

Float32MatmulPrecision float32MatmulPrecision();
void setFloat32MatmulPrecision(Float32MatmulPrecision precision);

/// "highest", "high", "medium" (torch.get_float32_matmul_precision()).
const char* float32MatmulPrecisionName(Float32MatmulPrecision precision);

/// TF32 for float32 products: precision "high" or "medium" (allow_tf32 = True sets "high").
bool allowTf32Matmul();

} // namespace kiln
