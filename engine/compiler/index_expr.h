// SPDX-License-Identifier: MIT
/// \file
/// Integer index arithmetic of the loop IR: loop variables, size symbols (dynamic dimensions),
/// constants, +, *, floor division and modulo. Expressions are immutable and shared; the
/// constructors fold constants and drop neutral terms, so structurally equal indices compare
/// equal and the text form is stable for golden tests.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace kiln::compiler {

struct IndexNode;
using Index = std::shared_ptr<const IndexNode>;

struct IndexNode {
    enum class Kind : uint8_t { Const, Var, Sym, Add, Mul, FloorDiv, Mod };
    Kind kind = Kind::Const;
    int64_t value = 0; ///< Const: the value; Var/Sym: the variable's or symbol's number
    Index lhs, rhs;
};

Index constant(int64_t value);
/// Loop variable number `id` (printed x0, x1, ... for pointwise and r0, ... in reductions by
/// the printers that know which is which; here always "v<id>").
Index loopVar(int32_t id);
/// Size symbol number `id` (the graph's s0, s1, ...).
Index sizeSymbol(int32_t id);
Index operator+(const Index& a, const Index& b);
Index operator*(const Index& a, const Index& b);
Index floorDiv(const Index& a, const Index& b);
Index modulo(const Index& a, const Index& b);

bool isConstant(const Index& e, int64_t* value = nullptr);
bool equal(const Index& a, const Index& b);
/// Whether `e` is the constant 1 (a size-1 dim).
bool isOne(const Index& e);
/// Whether loop variable `id` occurs in `e`.
bool usesVar(const Index& e, int32_t id);
/// Whether any loop variable occurs in `e`.
bool usesAnyVar(const Index& e);
/// The coefficient of loop variable `id` when `e` is affine in it (a sum of terms, each a
/// product with at most one occurrence of the variable); null when it is not affine.
Index coefficientOf(const Index& e, int32_t id);
/// Replaces loop variables: `var -> replacement(var)` (null keeps the variable).
Index substitute(const Index& e, const std::function<Index(int32_t)>& replacement);
/// The value with loop variables and symbols bound.
int64_t evaluate(const Index& e, std::span<const int64_t> vars, std::span<const int64_t> syms);
/// "v0*4096 + v1", "s0", "(v0 // 16) % 4"; `symbolNames` names symbols (default s<id>).
std::string toString(const Index& e, const std::vector<std::string>* varNames = nullptr,
                     const std::vector<std::string>* symbolNames = nullptr);

/// Product of the sizes (1 for none).
Index product(std::span<const Index> sizes);
/// Row-major strides for the sizes.
std::vector<Index> contiguousStrides(std::span<const Index> sizes);
/// sum(index[i] * strides[i]) + offset.
Index linearIndex(std::span<const Index> index, std::span<const Index> strides,
                  const Index& offset);

} // namespace kiln::compiler
