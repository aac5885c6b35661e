// SPDX-License-Identifier: MIT
/// \file
/// Tensors as PyTorch prints them: str(t) and repr(t) give "tensor([...])" with PyTorch's
/// number formatting (fixed/scientific/integer modes, precision 4, line width 80, summarising
/// tensors over 1000 elements with 3 edge items) and suffixes (dtype, device, requires_grad,
/// grad_fn).
#pragma once

#include "tensor/tensor.h"

#include <optional>
#include <string>

namespace kiln::tensor {

struct PrintOptions {
    int precision = 4;
    int64_t threshold = 1000;
    int64_t edgeItems = 3;
    int64_t lineWidth = 80;
    /// true/false force scientific notation on/off; unset lets the formatter decide.
    std::optional<bool> sciMode;
};

/// torch.set_printoptions state.
PrintOptions& printOptions();

/// repr(t) / str(t): "tensor([1., 2.])", "tensor([1, 2], dtype=torch.int32)", ...
std::string formatTensor(const Tensor& t);
/// The "Parameter containing:\ntensor(...)" form of an nn.Parameter.
std::string formatParameter(const Tensor& t);

} // namespace kiln::tensor
