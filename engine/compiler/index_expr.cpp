// SPDX-License-Identifier: MIT
#include "compiler/index_expr.h"

#include "support/assert.h"

namespace kiln::compiler {

namespace {

using Kind = IndexNode::Kind;

Index make(Kind kind, int64_t value, Index lhs = nullptr, Index rhs = nullptr) {
    auto n = std::make_shared<IndexNode>();
    n->kind = kind;
    n->value = value;
    n->lhs = std::move(lhs);
    n->rhs = std::move(rhs);
    return n;
}

int64_t floorDivInt(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

int64_t floorModInt(int64_t a, int64_t b) {
    return a - floorDivInt(a, b) * b;
}

/// Splits `e` into a constant factor and the rest (2*v0 -> 2, v0).
std::pair<int64_t, Index> splitFactor(const Index& e) {
    int64_t c = 0;
    if (isConstant(e, &c)) return {c, nullptr};
    if (e->kind == Kind::Mul && isConstant(e->lhs, &c)) return {c, e->rhs};
    return {1, e};
}

} // namespace

Index constant(int64_t value) {
    return make(Kind::Const, value);
}
Index loopVar(int32_t id) {
    return make(Kind::Var, id);
}
Index sizeSymbol(int32_t id) {
    return make(Kind::Sym, id);
}

bool isConstant(const Index& e, int64_t* value) {
    if (!e || e->kind != Kind::Const) return false;
    if (value) *value = e->value;
    return true;
}

Index operator+(const Index& a, const Index& b) {
    int64_t x = 0, y = 0;
    bool ca = isConstant(a, &x), cb = isConstant(b, &y);
    if (ca && cb) return constant(x + y);
    if (ca && x == 0) return b;
    if (cb && y == 0) return a;
    // Constants go to the right so "v0 + 3" and "3 + v0" print (and compare) the same.
    if (ca) return make(Kind::Add, 0, b, a);
    auto [fa, ra] = splitFactor(a);
    auto [fb, rb] = splitFactor(b);
    if (ra && rb && equal(ra, rb)) return constant(fa + fb) * ra;
    return make(Kind::Add, 0, a, b);
}

Index operator*(const Index& a, const Index& b) {
    int64_t x = 0, y = 0;
    bool ca = isConstant(a, &x), cb = isConstant(b, &y);
    if (ca && cb) return constant(x * y);
    if ((ca && x == 0) || (cb && y == 0)) return constant(0);
    if (ca && x == 1) return b;
    if (cb && y == 1) return a;
    if (cb) return b * a; // constant factors first: "4096*v0"
    if (ca && b->kind == Kind::Mul && isConstant(b->lhs, &y)) return constant(x * y) * b->rhs;
    if (ca && b->kind == Kind::Add) return a * b->lhs + a * b->rhs;
    return make(Kind::Mul, 0, a, b);
}

Index floorDiv(const Index& a, const Index& b) {
    int64_t x = 0, y = 0;
    bool cb = isConstant(b, &y);
    if (cb && y == 1) return a;
    if (isConstant(a, &x) && cb) return constant(floorDivInt(x, y));
    if (isConstant(a, &x) && x == 0) return a;
    if (equal(a, b)) return constant(1);
    return make(Kind::FloorDiv, 0, a, b);
}

Index modulo(const Index& a, const Index& b) {
    int64_t x = 0, y = 0;
    bool cb = isConstant(b, &y);
    if (cb && y == 1) return constant(0);
    if (isConstant(a, &x) && cb) return constant(floorModInt(x, y));
    if (equal(a, b)) return constant(0);
    return make(Kind::Mod, 0, a, b);
}

bool isOne(const Index& e) {
    int64_t v = 0;
    return isConstant(e, &v) && v == 1;
}

bool equal(const Index& a, const Index& b) {
    if (a == b) return true;
    if (!a || !b || a->kind != b->kind || a->value != b->value) return false;
    return equal(a->lhs, b->lhs) && equal(a->rhs, b->rhs);
}

bool usesVar(const Index& e, int32_t id) {
    if (!e) return false;
    if (e->kind == Kind::Var) return e->value == id;
    return usesVar(e->lhs, id) || usesVar(e->rhs, id);
}

bool usesAnyVar(const Index& e) {
    if (!e) return false;
    if (e->kind == Kind::Var) return true;
    return usesAnyVar(e->lhs) || usesAnyVar(e->rhs);
}

Index coefficientOf(const Index& e, int32_t id) {
    if (!usesVar(e, id)) return constant(0);
    switch (e->kind) {
    case Kind::Var:
        return constant(1);
    case Kind::Add: {
        Index l = coefficientOf(e->lhs, id), r = coefficientOf(e->rhs, id);
        if (!l || !r) return nullptr;
        return l + r;
    }
    case Kind::Mul: {
        if (usesVar(e->lhs, id) && usesVar(e->rhs, id)) return nullptr;
        if (usesVar(e->lhs, id)) {
            Index l = coefficientOf(e->lhs, id);
            return l ? l * e->rhs : nullptr;
        }
        Index r = coefficientOf(e->rhs, id);
        return r ? e->lhs * r : nullptr;
    }
    default:
        return nullptr;
    }
}

Index substitute(const Index& e, const std::function<Index(int32_t)>& replacement) {
    switch (e->kind) {
    case Kind::Const:
    case Kind::Sym:
        return e;
    case Kind::Var: {
        Index r = replacement(static_cast<int32_t>(e->value));
        return r ? r : e;
    }
    case Kind::Add:
        return substitute(e->lhs, replacement) + substitute(e->rhs, replacement);
    case Kind::Mul:
        return substitute(e->lhs, replacement) * substitute(e->rhs, replacement);
    case Kind::FloorDiv:
        return floorDiv(substitute(e->lhs, replacement), substitute(e->rhs, replacement));
    case Kind::Mod:
        return modulo(substitute(e->lhs, replacement), substitute(e->rhs, replacement));
    }
    KILN_ASSERT(false, "unknown index kind");
    return e;
}

int64_t evaluate(const Index& e, std::span<const int64_t> vars, std::span<const int64_t> syms) {
    switch (e->kind) {
    case Kind::Const:
        return e->value;
    case Kind::Var:
        return vars[static_cast<size_t>(e->value)];
    case Kind::Sym:
        return syms[static_cast<size_t>(e->value)];
    case Kind::Add:
        return evaluate(e->lhs, vars, syms) + evaluate(e->rhs, vars, syms);
    case Kind::Mul:
        return evaluate(e->lhs, vars, syms) * evaluate(e->rhs, vars, syms);
    case Kind::FloorDiv:
        return floorDivInt(evaluate(e->lhs, vars, syms), evaluate(e->rhs, vars, syms));
    case Kind::Mod:
        return floorModInt(evaluate(e->lhs, vars, syms), evaluate(e->rhs, vars, syms));
    }
    KILN_ASSERT(false, "unknown index kind");
    return 0;
}

std::string toString(const Index& e, const std::vector<std::string>* varNames,
                     const std::vector<std::string>* symbolNames) {
    auto sub = [&](const Index& x, bool paren) {
        std::string s = toString(x, varNames, symbolNames);
        bool compound = x->kind == Kind::Add;
        return paren && compound ? "(" + s + ")" : s;
    };
    auto name = [](const std::vector<std::string>* names, int64_t id, const char* prefix) {
        if (names && id < static_cast<int64_t>(names->size())) return (*names)[id];
        return prefix + std::to_string(id);
    };
    switch (e->kind) {
    case Kind::Const:
        return std::to_string(e->value);
    case Kind::Var:
        return name(varNames, e->value, "v");
    case Kind::Sym:
        return name(symbolNames, e->value, "s");
    case Kind::Add:
        return sub(e->lhs, false) + " + " + sub(e->rhs, false);
    case Kind::Mul:
        return sub(e->lhs, true) + "*" + sub(e->rhs, true);
    case Kind::FloorDiv:
        return "(" + sub(e->lhs, true) + " // " + sub(e->rhs, true) + ")";
    case Kind::Mod:
        return "(" + sub(e->lhs, true) + " % " + sub(e->rhs, true) + ")";
    }
    return "?";
}

Index product(std::span<const Index> sizes) {
    Index p = constant(1);
    for (const Index& s : sizes)
        p = p * s;
    return p;
}

std::vector<Index> contiguousStrides(std::span<const Index> sizes) {
    std::vector<Index> strides(sizes.size());
    Index running = constant(1);
    for (size_t i = sizes.size(); i-- > 0;) {
        strides[i] = running;
        running = running * sizes[i];
    }
    return strides;
}

Index linearIndex(std::span<const Index> index, std::span<const Index> strides,
                  const Index& offset) {
    KILN_ASSERT(index.size() == strides.size(), "index rank differs from the layout");
    Index sum = offset;
    for (size_t i = 0; i < index.size(); ++i)
        sum = sum + index[i] * strides[i];
    return sum;
}

} // namespace kiln::compiler
