// SPDX-License-Identifier: MIT
/// \file
/// torch.SymInt during a trace: the script-level objects (torch/_dynamo/sym_int.py) that stand
/// for symbolic sizes, and the natives their methods call to record arithmetic or to
/// specialise. A SymInt belongs to the trace that made it (by serial number); for any other
/// trace, or none, it is just its value.
#pragma once

#include "lang/interpreter.h"

#include <optional>

namespace kiln::capture {

class Tracer;

struct SymIntView {
    uint64_t trace = 0;
    int32_t node = -1;
    int64_t hint = 0;  ///< the example value of a SymInt (0 for a SymFloat)
    lang::Value value; ///< the example value: an int, or a float for a SymFloat
};

/// The fields of a SymInt or SymFloat `v`, or nullopt when `v` is neither.
std::optional<SymIntView> symIntOf(lang::Interpreter& interp, const lang::Value& v);
/// A new SymInt of `trace` standing for graph node `node` with example value `hint`.
lang::Value makeSymInt(lang::Interpreter& interp, uint64_t trace, int32_t node, int64_t hint);
/// A backend's example for a SymInt graph input: of no trace, reported by type() as SymInt,
/// printing as `expr` ("s0"; its value when empty).
lang::Value makeGraphInputSymInt(lang::Interpreter& interp, int32_t node, int64_t value,
                                 const std::string& expr = {});
/// A SymInt for an int `value`, a SymFloat for a float one.
lang::Value makeSymNumber(lang::Interpreter& interp, uint64_t trace, int32_t node,
                          const lang::Value& value);
/// `v` with every SymInt (also inside lists and tuples) replaced by its value.
lang::Value concreteValue(lang::Interpreter& interp, const lang::Value& v);

/// Adds _kiln_sym_binary and _kiln_sym_value to torch._dynamo; `activeTracer` gives the trace
/// that is recording (null when none).
void installSymIntNatives(lang::Interpreter& interp, lang::ModuleObject& dynamo,
                          std::function<Tracer*()> activeTracer);

} // namespace kiln::capture
