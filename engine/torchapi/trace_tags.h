// SPDX-License-Identifier: MIT
/// \file
/// Tells torch.compile's tracer (engine/capture) what each torch native does: the TraceInfo
/// on every NativeFunctionObject of torch, torch.nn.functional, torch.linalg/fft/special (when
/// present) and the Tensor type (methods, and property getters and setters).
///
/// The tags live in tables keyed by name rather than in the OpEntry tables of the binding files,
/// so the policy (what records a node, what breaks the graph and why) reads in one place.
#pragma once

#include "lang/interpreter.h"

#include <cstdint>

namespace kiln::torchapi {

/// The capture layer's BreakKind, by value: torchapi sits below engine/capture and cannot
/// include its headers, so these numbers must stay in step with capture/break_reason.h.
enum class TraceBreak : uint8_t {
    SideEffect = 0,
    Item = 1,
    ScalarConvert = 2,
    DataDependent = 3,
    GraphBreakCall = 4,
    Disabled = 5,
    DynamicShapeOp = 6,
    Unsupported = 7,
    Mutation = 8,
};

/// Sets `trace` on the torch natives. Called once the whole torch namespace is installed (the
/// end of `import torch`); the Tensor type is process-wide, so its natives are retagged each
/// time an interpreter installs torch, as they are recreated then.
void tagTraceInfo(lang::Interpreter& interp, lang::ModuleObject& torch);

} // namespace kiln::torchapi
