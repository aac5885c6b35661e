// SPDX-License-Identifier: MIT
/// \file
/// How a SymInt's value follows from a frame's inputs: a size of an input tensor, an int input,
/// a constant, or int arithmetic on those. Guards evaluate it on each call, so a comparison
/// the traced frame made on a SymInt (`if T > 4`, `assert T <= block_size`) becomes a guard
/// on the symbols instead of pinning the sizes (Dynamo's `s0 > 4`).
#pragma once

#include "capture/source.h"

#include <memory>
#include <optional>
#include <string>

namespace kiln::capture {

class SymExpr;
using SymExprPtr = std::shared_ptr<const SymExpr>;

class SymExpr {
public:
    enum class Kind : uint8_t { Size, IntInput, Constant, Binary };
    /// `<source>.size()[dim]`.
    static SymExprPtr size(SourcePtr source, int64_t dim);
    /// The int at `source`.
    static SymExprPtr intInput(SourcePtr source);
    static SymExprPtr constant(int64_t value);
    static SymExprPtr binary(lang::BinaryOperator op, SymExprPtr a, SymExprPtr b);

    /// The value for a frame's inputs; nullopt when an input is not what the expression needs.
    std::optional<int64_t> evaluate(lang::Interpreter& interp,
                                    const std::vector<lang::Value>& slots,
                                    lang::ModuleObject& globals) const;
    /// "L['x'].size()[1]", "(L['n'] * 2)".
    std::string str() const;
    /// The source of its first input (what the guard reports as its source).
    SourcePtr firstSource() const;

private:
    Kind m_kind = Kind::Constant;
    SourcePtr m_source;
    int64_t m_value = 0; ///< Size: the dim; Constant: the value
    lang::BinaryOperator m_op = lang::BinaryOperator::Add;
    SymExprPtr m_a, m_b;
};

} // namespace kiln::capture
