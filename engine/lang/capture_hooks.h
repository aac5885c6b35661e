// SPDX-License-Identifier: MIT
/// \file
/// The seams where torch.compile's capture layer (engine/capture, a layer above this one)
/// plugs into the interpreter. The interpreter stays ignorant of graphs: it only calls these
/// interfaces at the points where Dynamo would intervene.
///
/// - FrameHook sees every call of a Python function while a compiled region is active (the
///   eval-frame callback): it may serve the call from its cache, trace it, or let it run.
/// - TraceRecorder is installed while a frame is being traced: native tensor functions,
///   operators on tensors, and the operations that need a tensor's value (bool(), print, ...)
///   report to it so it can record graph nodes or end the graph (a graph break).
/// - ResumeRequest marks a frame whose trace ended at a graph break: when the statement that
///   broke finishes, the rest of the function is handed back to the capture layer.
#pragma once

#include "lang/ast.h"
#include "lang/value.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <unordered_map>

namespace kiln::lang {

class Interpreter;
struct Frame;
class FunctionObject;
class NativeFunctionObject;
class ModuleObject;
class CellObject;
struct CallArgs;
enum class Flow : uint8_t;

/// How a native function behaves while a frame is traced (the torch bindings set it).
enum class TraceKind : uint8_t {
    Opaque,   ///< unknown to tracing: a traced tensor among its arguments breaks the graph
    Record,   ///< becomes a graph node (call_function, or call_method when `method`)
    Metadata, ///< only reads metadata (shape, dtype, ...): runs as is, records nothing
    Break,    ///< always a graph break (needs real values: item, tolist, ...)
};

struct TraceInfo {
    TraceKind kind = TraceKind::Opaque;
    bool method = false;
    std::string target; ///< "torch.sin", "sum", "torch.nn.functional.relu"
    /// Break: PyTorch's reason text ("Tensor.item"), the capture layer's break kind, and whether
    /// it breaks even when no argument is traced (graph_break(), manual_seed()).
    std::string reason;
    uint8_t breakKind = 0;
    bool always = false;
    /// Record: an in-place op (add_, copy_): its first argument is written.
    bool inPlace = false;
    /// Record: positional arguments the op writes besides any `inPlace` one, bit i for argument
    /// i (batch_norm in training updates running_mean and running_var).
    uint8_t writesArgs = 0;
    /// Record: a tensor-valued property (x.T, x.mT): recorded as getattr(x, target).
    bool attribute = false;
};

/// Python-level operators on tensors, as graph nodes (operator.add, operator.getitem, ...).
enum class OperatorCall : uint8_t { Binary, InplaceBinary, Unary, Compare, GetItem, SetItem };

/// Why a tensor's value was needed.
enum class TensorValueUse : uint8_t { Branch, Bool, Int, Float, Format, Iterate };

class TraceRecorder {
public:
    virtual ~TraceRecorder() = default;
    /// True when `v` is (or contains, for containers) a tensor of the trace.
    virtual bool isTraced(const Value& v) const = 0;
    /// A native function called during the trace.
    virtual Value callNative(NativeFunctionObject& fn, const CallArgs& args) = 0;
    /// An operator applied to values at least one of which is traced; `compute` runs it.
    virtual Value callOperator(OperatorCall call, uint8_t code, std::span<const Value> args,
                               const std::function<Value()>& compute) = 0;
    /// A traced tensor's value is needed (if/while test, bool(), int(), print of it, ...).
    /// Ends the graph; returns normally when execution may go on eagerly.
    virtual void needValue(const Value& tensor, TensorValueUse use) = 0;
    /// A builtin with side effects (print, ...) called during the trace: a graph break.
    virtual void sideEffect(const std::string& builtin, const CallArgs& args) = 0;
    /// Where values come from, so the recorder can guard them and find graph inputs again on
    /// later calls: a global name was read; an attribute was read; an item was read.
    virtual void readGlobal(Symbol name, const Value& value) = 0;
    virtual void readAttribute(const Value& object, Symbol name, const Value& value) = 0;
    virtual void readItem(const Value& container, const Value& key, const Value& value) = 0;
    /// A Python object is about to be mutated (attribute or item assignment, list.append, ...).
    /// `key` is the attribute name (a str) or the item key; `value` what is stored. Returns
    /// the value to store (the recorder may replace values that only exist in the trace).
    virtual Value mutation(const Value& object, const char* what, const Value& key,
                           const Value& value) = 0;
    /// A generator is about to run on: the `serial`-th one the interpreter made.
    virtual void resumingGenerator(uint64_t serial) = 0;
    /// A name outside the frames being traced is about to be assigned: a global of `module`
    /// (`cell` null) or an enclosing function's variable (its `cell`).
    virtual void outerNameStore(ModuleObject* module, Symbol name, CellObject* cell) = 0;
    /// A traced frame's own variable (CPython's STORE_FAST) is about to be assigned `value`.
    virtual void localStore(Symbol name, const Value& value) = 0;
    /// An expression of the frame being traced produced `value` (the recorder remembers the
    /// sub-expressions of a statement in case the statement breaks the graph).
    virtual void evaluated(const Frame& frame, const Expr& expr, const Value& value) = 0;
};

class FrameHook {
public:
    virtual ~FrameHook() = default;
    /// The awaited expression of a frame with a ResumeRequest finished with `value`; returns the
    /// value evaluation goes on with. May start tracing the rest of the frame right here, or
    /// throw a FrameJump to end or continue the frame from a cached graph's results.
    virtual Value onExpressionDone(Frame& frame, const Expr& expression, Value value) = 0;
    /// A frame marked `captureOpen` is leaving (normally, or by an exception when `unwinding`).
    virtual void onFrameExit(Frame& frame, Value& returnValue, bool unwinding) = 0;
    /// Called for each Python function call while a compiled region is active. Returns Empty
    /// to let the interpreter run the call itself.
    virtual Value onCall(FunctionObject& fn, const CallArgs& args, const Value* self) = 0;
    /// The statement of `frame` that broke a graph has finished (or, for a data-dependent
    /// `if`, its test was evaluated and `branch` says which block runs): run the rest of the
    /// function and return how the frame ends.
    virtual Flow onResume(Frame& frame, const Stmt& statement, int branch) = 0;
};

/// Set on a frame whose graph broke at `statement`; consumed by the interpreter.
struct ResumeRequest {
    const Stmt* statement = nullptr;
    bool atBranch = false; ///< the break was in an `if` test: resume inside the chosen branch
    /// The break was inside an expression: when `expression` (any expression of the frame
    /// when null) finishes evaluating, FrameHook::onExpressionDone decides where the rest of
    /// the frame resumes (right there, or after the statement).
    bool awaitExpression = false;
    const Expr* expression = nullptr;
};

/// Base of the C++ exceptions the capture layer uses to unwind the interpreter's stack (a graph
/// break inside an inlined call rewinds to the call). They are not Python exceptions: `except`,
/// `finally` and `with` blocks let them pass without running.
struct TraceUnwind {};

/// Thrown by the capture layer to make `frame` return `returnValue` at once, or continue at
/// statement `continueAt` with `memo` and `resume` set (a cached graph stood in for the rest
/// of the statement that was being evaluated). Caught where the frame runs.
struct FrameJump : TraceUnwind {
    const Frame* frame = nullptr;
    Value returnValue;
    const Stmt* continueAt = nullptr;
    std::unordered_map<const Expr*, Value> memo;
    ResumeRequest resume;
};

/// Sub-expressions of a statement whose values were computed by a graph (cache-hit replay of
/// a statement that broke a graph): eval() returns these instead of evaluating the node.
using ExpressionMemo = std::unordered_map<const Expr*, Value>;

} // namespace kiln::lang
