// SPDX-License-Identifier: MIT
/// \file
/// How the capture layer sees a Python value: which guard protects it, whether it is an
/// nn.Module (and one of torch.nn's own, which graphs call as call_module), and the items of a
/// list or tuple.
#pragma once

#include "lang/interpreter.h"

#include <vector>

namespace kiln::capture {

enum class ValueKind : uint8_t {
    Tensor,    ///< TENSOR_MATCH when first used
    Identity,  ///< ID_MATCH: None, bool, functions, classes, Python modules, enum members
    Constant,  ///< EQUALS_MATCH: int, float, str (a str subclass's type checked too)
    Sequence,  ///< list/tuple: TYPE_MATCH + LENGTH_CHECK + the items
    Module,    ///< nn.Module instance: ID_MATCH + its `training` flag
    Object,    ///< other instances: TYPE_MATCH
    Unguarded, ///< bound methods, iterators, dicts, ...: not guarded
};

ValueKind valueKind(lang::Interpreter& interp, const lang::Value& v);

/// A member of an enum.Enum class (an instance or a str mixin's): one object per value, so
/// guarded by identity, as Dynamo's EnumVariable is.
bool isEnumMember(const lang::Value& v);

/// The items of a list or tuple; empty for anything else.
const std::vector<lang::Value>& sequenceItems(const lang::Value& v);

/// An instance of torch.nn.Module (or a subclass).
bool isModuleObject(lang::Interpreter& interp, const lang::Value& v);
/// A module with forward or forward-pre hooks: Dynamo inlines its __call__ (the hooks with
/// it) instead of recording an opaque call_module, as 2.3 does for torch.nn's layers too.
bool hasForwardHooks(const lang::Value& module);
/// A module whose class is one of torch.nn's own (nn.Linear, nn.ReLU, ...): graphs record its
/// calls as call_module nodes, as PyTorch 2.3 does, instead of inlining its forward.
bool isLibraryModule(lang::Interpreter& interp, const lang::Value& v);
/// A Python function defined in one of Kiln's bundled torch modules.
bool isLibraryFunction(const lang::FunctionObject& fn);
/// A Python function of a bundled standard-library module that Dynamo 2.3 skips
/// (trace_rules.BUILTIN_SKIPLIST: enum, functools, dataclasses, typing, ...): its frame runs
/// as is and is never compiled; the user functions it calls are still seen.
bool isSkippedStdlibFunction(const lang::FunctionObject& fn);
/// The forward of one of torch.nn's layers (torch.nn.modules.*): library code that is still
/// compiled as a frame of its own, as Dynamo does.
bool isLayerForward(const lang::FunctionObject& fn);

} // namespace kiln::capture
