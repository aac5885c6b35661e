// SPDX-License-Identifier: MIT
/// \file
/// CPython's own gamma and lgamma (its Lanczos approximation), for the math module.
#pragma once

namespace kiln::torchapi {

enum class MathError { None, Domain, Range };

struct MathResult {
    double value;
    MathError error = MathError::None;
};

MathResult pythonGamma(double x);
MathResult pythonLgamma(double x);

} // namespace kiln::torchapi
