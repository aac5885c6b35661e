// SPDX-License-Identifier: MIT
/// \file
/// Why a trace could not go on (a graph break, or with fullgraph=True an Unsupported error):
/// the kind, PyTorch 2.3's reason text, and the user stack where it happened.
#pragma once

#include "lang/interpreter.h"

#include <string>
#include <vector>

namespace kiln::capture {

/// One frame of a user stack, innermost last (what FrameSummary holds).
struct UserFrame {
    std::string file;
    int32_t line = 0;
    int32_t column = 0;
    std::string function;
    std::string code; ///< the source line, stripped
};

using UserStack = std::vector<UserFrame>;

enum class BreakKind : uint8_t {
    SideEffect,     ///< print and other side-effecting builtins
    Item,           ///< Tensor.item() / tolist() without capture_scalar_outputs
    ScalarConvert,  ///< bool(t), int(t), float(t), repr/format of a tensor
    DataDependent,  ///< if/while on a tensor
    GraphBreakCall, ///< torch._dynamo.graph_break()
    Disabled,       ///< a torch.compiler.disable'd function
    DynamicShapeOp, ///< nonzero, unique, ... (output shape depends on data)
    Unsupported,    ///< a function or operation tracing does not handle
    Mutation,       ///< mutation of a Python object from outside the traced frame
};

/// "print", "item", "data_dependent_branch", ...: the trace DB's reason_kind column.
const char* breakKindName(BreakKind kind);

struct BreakReason {
    BreakKind kind = BreakKind::Unsupported;
    std::string text; ///< PyTorch's Unsupported message, e.g. "generic_jump TensorVariable()"
    UserStack stack;
};

/// The stack of script frames from `innermost` outwards to (and including) `outermost`,
/// innermost last, as Dynamo's user stack lists them.
UserStack userStackOf(const lang::Frame* innermost, const lang::Frame* outermost);

/// "  File "x.py", line 3, in fn\n    print(x)\n" per frame, as traceback.format_list prints.
std::string formatUserStack(const UserStack& stack);

/// Dynamo's name for the kind of a value in reason texts: TensorVariable(),
/// ConstantVariable(int), ListVariable(), ...
std::string variableTypeName(lang::Interpreter& interp, const lang::Value& v, bool traced);

} // namespace kiln::capture
