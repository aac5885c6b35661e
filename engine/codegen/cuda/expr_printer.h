// SPDX-License-Identifier: MIT
/// \file
/// Internal: loop IR expressions as CUDA C++ text, shared by the pointwise and reduction
/// emitters. Index expressions print with the loop variables' names the emitter binds; scalar
/// expressions print as a sequence of `const T tN = ...;` statements (one per distinct node and
/// lane, so shared subexpressions are computed once) and return the name holding the value.
/// Loads go through a hook, so an emitter can serve them from a vector load, a register that
/// holds a reduction's result, or the default scalar load.
#pragma once

#include "compiler/loop_ir.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kiln::codegen::cuda {

using compiler::DType;
using compiler::Index;
using compiler::Scalar;
using compiler::ScalarNode;

/// "float", "double", "long long", "int", "bool": the type an expression of `t` computes in.
const char* computeTypeName(DType t);
/// The element type a buffer of `t` is stored as in device memory ("kiln_bf16" for bf16).
const char* storageTypeName(DType t);
/// `value` (of computeType(t)) converted for a store into a `t` buffer.
std::string narrowForStore(const std::string& value, DType t);
/// A stored element `raw` widened to its compute type.
std::string widenLoaded(const std::string& raw, DType t);
/// `value` converted from compute type of `from` to that of `to`.
std::string convertValue(const std::string& value, DType from, DType to);
/// A literal of `dtype` (hex floats, so every value prints exactly).
std::string literal(double value, DType dtype);
/// Whether two expressions compute the same thing (same ops, loads, constants).
bool sameScalar(const Scalar& a, const Scalar& b);

class ExprPrinter {
public:
    /// Names a loop variable in lane `lane` ("x1", "(r0 + 2)").
    using VarNamer = std::function<std::string(int32_t var, int lane)>;
    /// Returns the value of a load in `lane` as an expression, or "" for the default load.
    using LoadHook = std::function<std::string(const ScalarNode& load, int lane)>;

    ExprPrinter(const compiler::LoopProgram& program, VarNamer vars, std::string indent)
        : m_program(program)
        , m_vars(std::move(vars))
        , m_indent(std::move(indent)) {}

    /// Returns a name already holding the value of `s` in `lane`, or "" to compute it.
    using ValueHook = std::function<std::string(const Scalar& s, int lane)>;

    void setLoadHook(LoadHook hook) { m_hook = std::move(hook); }
    void setValueHook(ValueHook hook) { m_valueHook = std::move(hook); }
    void setIndent(std::string indent) { m_indent = std::move(indent); }

    std::string index(const Index& e, int lane = 0) const;
    /// Emits the statements computing `s` in `lane` (into code()) and returns the value's name.
    std::string value(const Scalar& s, int lane = 0);
    /// The buffer's parameter name (its IR name).
    std::string bufferName(int32_t buffer) const;
    /// The default load: the element at the load's index, widened.
    std::string scalarLoad(const ScalarNode& load, int lane);

    /// Statements emitted so far; take() hands them over and starts afresh.
    std::string take();
    /// Forgets computed values (they are out of scope after a loop closes).
    void forget() {
        m_memo.clear();
        m_texts.clear();
    }
    /// Names of the temporaries are unique across the kernel.
    std::string fresh(const char* prefix) { return prefix + std::to_string(m_counter++); }

    /// Whether the kernel's status buffer (out-of-range indirect positions) is written.
    bool usesStatus() const { return m_usesStatus; }

private:
    std::string op(const ScalarNode& s, int lane);
    std::string sinCos(const ScalarNode& s, int lane);
    void emit(const std::string& type, const std::string& name, const std::string& expr);

    const compiler::LoopProgram& m_program;
    VarNamer m_vars;
    std::string m_indent;
    LoadHook m_hook;
    ValueHook m_valueHook;
    std::map<std::pair<const ScalarNode*, int>, std::string> m_memo;
    std::map<std::string, std::string> m_texts; ///< "type expression" -> the name holding it
    std::string m_code;
    int m_counter = 0;
    bool m_usesStatus = false;
};

} // namespace kiln::codegen::cuda
