// SPDX-License-Identifier: MIT
/// \file
/// Kiln's `inductor` backend: runs the compiler pipeline on a captured graph and returns the
/// compiled callable, reporting kernels to the trace and timings of every launch. Graphs the
/// compiler refuses (non-tensor outputs, in-place mutation, ...) run through the eager kernels
/// with an INFO log saying why.
#pragma once

#include "capture/inductor_hook.h"

namespace kiln::inductor {

/// The compiler to install with CaptureEngine::setInductorCompiler.
capture::InductorCompiler makeInductorCompiler();

} // namespace kiln::inductor
