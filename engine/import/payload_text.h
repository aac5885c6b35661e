// SPDX-License-Identifier: MIT
/// \file
/// Readers of the text payloads of a structured trace: Dynamo's C++ guard tree, FX's readable
/// graphs, Inductor's output code and graph-break reasons. Each takes what it recognises and
/// skips the rest, because these texts are PyTorch's printouts, not a format with a promise.
#pragma once

#include "support/capture_events.h"
#include "support/compiler_events.h"

#include <string>
#include <string_view>
#include <vector>

namespace kiln::importer {

/// The leaf guards of a `dynamo_cpp_guards_str` tree ("| +- TENSOR_MATCH: check_tensor(...)"),
/// each with the source of the GuardManager it sits under and the user line of its comment.
std::vector<GuardEvent> parseCppGuards(std::string_view text, const std::string& compileId);

/// A `dynamo_guards` payload (PyTorch 2.3 to 2.5, before the C++ guard tree): a JSON list of
/// {"code", "stack", "user_stack"}; each code becomes a guard, its kind and source read from the
/// check (`check_tensor(L['x'], ...)` TENSOR_MATCH, `___check_obj_id` ID_MATCH, `X == V`
/// EQUALS_MATCH, ...), its user line the innermost user_stack entry's. Not a list: none.
std::vector<GuardEvent> parseGuardList(std::string_view text, const std::string& compileId);

/// The nodes of a readable FX graph (`dynamo_output_graph`): the forward's parameters as
/// placeholders, each `name: "f32[8, 16]..." = target(args)` line as a call, `return` as the
/// output node.
std::vector<GraphNodeInfo> parseReadableGraph(std::string_view text);

/// The kernels Inductor's output code defines (`name = async_compile.triton('name', '''...''')`
/// or `async_compile.cpp_pybinding([...], r'''...''')`), with kind from Inductor's naming.
std::vector<KernelEvent> parseOutputCode(std::string_view code);

/// One call of an extern kernel in the `call()` of Inductor's output code: a library or ATen
/// function the wrapper calls directly rather than a kernel it generated.
struct ExternCall {
    std::string op;    ///< the profiler's name of the call: "aten::mm", "aten::addmm"
    std::string name;  ///< Kiln's kernel name for it: "extern_mm", "extern_bias_addmm"
    std::string nodes; ///< its "Topologically Sorted Source Nodes", comma-separated
    std::string line;  ///< the wrapper's line, trimmed
};

/// The extern calls of an output code's `call()`, in call order: `extern_kernels.NAME(...)`
/// (profiled as `aten::NAME`; `bias_addmm` as `aten::addmm`) and
/// `torch.ops.aten.NAME.OVERLOAD(...)` (profiled as `aten::NAME`).
std::vector<ExternCall> parseExternCalls(std::string_view code);

/// A `dynamo_graph_break_reason` payload: the user location of its first line, the reason, and
/// the user stack that follows "User code traceback:".
GraphBreakEvent parseGraphBreakReason(std::string_view text);

/// The failed guard one line of a `recompile_reasons` artifact names, without its "F/C: "
/// prefix, in the recompiles table's terms: "tensor 'x' size mismatch at index 1. expected 64,
/// actual 96" is L['x'], "size[1] == 64", "size[1] == 96"; "L['n'] == 3" is L['n'], "3";
/// ___check_obj_id(L['m'], ...) is L['m'], "the same object". Words it does not know leave
/// all three empty (the reason itself is kept whole).
struct FailedGuardText {
    std::string source, expected, actual;
};
FailedGuardText parseRecompileReason(std::string_view reason);

} // namespace kiln::importer
