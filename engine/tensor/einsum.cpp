// SPDX-License-Identifier: MIT
// torch.einsum. The equation is parsed into one label list per operand (explicit or implicit
// output, repeated labels, one `...` per term). Every operand is then aligned to a common list
// of dimensions (diagonals taken for repeated labels, missing dims as size 1), dims only one
// operand uses are summed away early, and the operands are contracted left to right: a pair
// with contracted dims becomes one bmm (batch, left, contracted) x (batch, contracted, right),
// a pair without becomes a broadcast multiply.
#include "tensor/error.h"
#include "tensor/op_support.h"
#include "tensor/ops.h"

#include <algorithm>
#include <string>

namespace kiln::tensor {

namespace {

constexpr int kLetters = 52;

/// Letters map to 0..51 in ASCII order (A-Z, then a-z), which is also the implicit output order.
int letterId(char c) {
    return c <= 'Z' ? c - 'A' : c - 'a' + 26;
}

char letterOf(int id) {
    return static_cast<char>(id < 26 ? 'A' + id : 'a' + id - 26);
}

bool isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

struct Term {
    std::vector<int> letters;
    int ellipsisAt = -1; ///< position in `letters` where `...` stands, or -1
};

struct Equation {
    std::vector<Term> inputs;
    bool explicitOutput = false;
    Term output;
};

[[noreturn]] void failEinsum(const std::string& message) {
    failRuntime("einsum(): " + message);
}

/// Reads one term starting at `pos` (stops at ',' or '-' or the end); `owner` names it in
/// messages ("operand 0" or "output").
Term parseTerm(const std::string& eq, size_t& pos, const std::string& owner, bool isOutput) {
    Term term;
    for (; pos < eq.size() && eq[pos] != ',' && eq[pos] != '-'; ++pos) {
        char c = eq[pos];
        if (c == ' ') continue;
        if (c == '.') {
            if (term.ellipsisAt >= 0)
                failEinsum("found '.' for " + owner +
                           (isOutput ? " but an ellipsis (...) was already found"
                                     : " for which an ellipsis was already found"));
            if (eq.compare(pos, 3, "...") != 0)
                failEinsum("found '.' for " + owner + " that is not part of any ellipsis" +
                           (isOutput ? " (...)" : ""));
            term.ellipsisAt = static_cast<int>(term.letters.size());
            pos += 2;
            continue;
        }
        if (!isLetter(c))
            failEinsum("invalid subscript given at index " + std::to_string(pos) +
                       " in the equation string, subscripts must be in [a-zA-Z]");
        term.letters.push_back(letterId(c));
    }
    return term;
}

/// The output torch infers without "->": `...` first, then letters used exactly once, sorted.
Term implicitOutput(const std::vector<Term>& inputs) {
    int counts[kLetters] = {};
    Term out;
    for (const Term& t : inputs) {
        for (int l : t.letters)
            ++counts[l];
        if (t.ellipsisAt >= 0) out.ellipsisAt = 0;
    }
    for (int l = 0; l < kLetters; ++l)
        if (counts[l] == 1) out.letters.push_back(l);
    return out;
}

void checkOutput(const Term& output, const std::vector<Term>& inputs) {
    bool used[kLetters] = {}, seen[kLetters] = {};
    for (const Term& t : inputs)
        for (int l : t.letters)
            used[l] = true;
    for (int l : output.letters) {
        std::string name(1, letterOf(l));
        if (!used[l])
            failEinsum("output subscript " + name +
                       " does not appear in the equation for any input operand");
        if (seen[l])
            failEinsum("output subscript " + name + " appears more than once in the output");
        seen[l] = true;
    }
}

Equation parseEquation(const std::string& eq, size_t operandCount) {
    Equation e;
    size_t pos = 0;
    while (true) {
        e.inputs.push_back(parseTerm(eq, pos, "operand " + std::to_string(e.inputs.size()), false));
        if (pos >= eq.size() || eq[pos] != ',') break;
        ++pos;
    }
    if (pos < eq.size()) { // "->"
        if (eq.compare(pos, 2, "->") != 0)
            failEinsum("invalid subscript given at index " + std::to_string(pos) +
                       " in the equation string, subscripts must be in [a-zA-Z]");
        pos += 2;
        e.explicitOutput = true;
        e.output = parseTerm(eq, pos, "output", true);
        if (pos < eq.size())
            failEinsum("invalid subscript given at index " + std::to_string(pos) +
                       " in the equation string, subscripts must be in [a-zA-Z]");
    }
    if (e.inputs.size() > operandCount)
        failEinsum("fewer operands were provided than specified in the equation");
    if (e.inputs.size() < operandCount)
        failEinsum("more operands were provided than specified in the equation");
    if (!e.explicitOutput) e.output = implicitOutput(e.inputs);
    checkOutput(e.output, e.inputs);
    return e;
}

// ---------------------------------------------------------------------------------------------
// Alignment: global dims are ids 0..51 for letters and kLetters + k for the k-th ellipsis dim.

struct Layout {
    std::vector<int> ids;      ///< global ids in canonical order (ellipsis dims first)
    std::vector<int> position; ///< id -> index in `ids`, -1 when unused
    int ellipsisDims = 0;
};

/// Number of dims the ellipsis of `term` covers in an operand of rank `rank`.
int ellipsisCount(const Term& term, int64_t rank, size_t operand) {
    const int64_t named = static_cast<int64_t>(term.letters.size());
    if (term.ellipsisAt < 0) {
        if (named != rank)
            failEinsum("the number of subscripts in the equation (" + std::to_string(named) +
                       ") does not match the number of dimensions (" + std::to_string(rank) +
                       ") for operand " + std::to_string(operand) + " and no ellipsis was given");
        return 0;
    }
    if (named > rank)
        failEinsum("the number of subscripts in the equation (" + std::to_string(named) +
                   ") is more than the number of dimensions (" + std::to_string(rank) +
                   ") for operand " + std::to_string(operand));
    return static_cast<int>(rank - named);
}

/// The global id of every dim of an operand, in the operand's own order.
std::vector<int> operandIds(const Term& term, int covered, int ellipsisDims) {
    std::vector<int> ids;
    for (size_t i = 0; i <= term.letters.size(); ++i) {
        if (static_cast<int>(i) == term.ellipsisAt)
            for (int k = 0; k < covered; ++k)
                ids.push_back(kLetters + ellipsisDims - covered + k);
        if (i < term.letters.size()) ids.push_back(term.letters[i]);
    }
    return ids;
}

Layout buildLayout(const Equation& e, const std::vector<int>& covered) {
    Layout layout;
    layout.ellipsisDims = *std::max_element(covered.begin(), covered.end());
    layout.position.assign(static_cast<size_t>(kLetters + layout.ellipsisDims), -1);
    auto add = [&](int id) {
        if (layout.position[id] < 0) {
            layout.position[id] = static_cast<int>(layout.ids.size());
            layout.ids.push_back(id);
        }
    };
    for (int k = 0; k < layout.ellipsisDims; ++k)
        add(kLetters + k);
    for (const Term& t : e.inputs)
        for (int l : t.letters)
            add(l);
    return layout;
}

/// Positions (p, q), p < q, of the first label that appears twice; (0, 0) when none does.
std::pair<size_t, size_t> firstRepeat(const std::vector<int>& ids) {
    for (size_t q = 1; q < ids.size(); ++q)
        for (size_t p = 0; p < q; ++p)
            if (ids[p] == ids[q]) return {p, q};
    return {0, 0};
}

/// Replaces each pair of dims with one label by their diagonal (appended last, like diagonal()).
Tensor takeDiagonals(Tensor t, std::vector<int>& ids, size_t operand) {
    while (true) {
        auto [p, q] = firstRepeat(ids);
        if (q == 0) return t;
        if (t.sizes()[q] != t.sizes()[p])
            failEinsum("subscript " + std::string(1, letterOf(ids[p])) +
                       " is repeated for operand " + std::to_string(operand) +
                       " but the sizes don't match, " + std::to_string(t.sizes()[q]) +
                       " != " + std::to_string(t.sizes()[p]));
        int id = ids[p];
        t = diagonal(t, 0, static_cast<int64_t>(p), static_cast<int64_t>(q));
        ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(q));
        ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(p));
        ids.push_back(id);
    }
}

struct Operand {
    Tensor t;                  ///< rank = layout size, dims in global order (size 1 if unused)
    std::vector<char> present; ///< per global dim: the operand's subscripts name it
};

Operand alignOperand(const Tensor& input, const Term& term, int covered, const Layout& layout,
                     size_t index) {
    std::vector<int> ids = operandIds(term, covered, layout.ellipsisDims);
    Tensor t = takeDiagonals(input, ids, index);
    const size_t rank = layout.ids.size();
    Operand op;
    op.present.assign(rank, 0);
    // The operand's dims in global order (a permute), then size-1 dims where it names none
    // (unsqueezes): views autograd differentiates, so gradients reach the input.
    DimVector order(ids.size());
    for (size_t k = 0; k < ids.size(); ++k) {
        order[k] = static_cast<int64_t>(k);
        op.present[static_cast<size_t>(layout.position[ids[k]])] = 1;
    }
    std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return layout.position[ids[static_cast<size_t>(a)]] <
               layout.position[ids[static_cast<size_t>(b)]];
    });
    Tensor aligned = permute(t, order);
    for (size_t g = 0; g < rank; ++g)
        if (!op.present[g]) aligned = unsqueeze(aligned, static_cast<int64_t>(g));
    // torch counts an ellipsis as naming every broadcast dim, even ones it covers none of.
    if (term.ellipsisAt >= 0)
        for (int k = 0; k < layout.ellipsisDims; ++k)
            op.present[layout.position[kLetters + k]] = 1;
    op.t = aligned;
    return op;
}

[[noreturn]] void failBroadcast(const Layout& layout, int g, size_t operand, int64_t size,
                                int64_t seen, int covered) {
    int id = layout.ids[g];
    if (id < kLetters)
        failEinsum("subscript " + std::string(1, letterOf(id)) + " has size " +
                   std::to_string(size) + " for operand " + std::to_string(operand) +
                   " which does not broadcast with previously seen size " + std::to_string(seen));
    int dim = id - kLetters - (layout.ellipsisDims - covered);
    // torch's message really has no space before "has".
    failEinsum("dimension " + std::to_string(dim) + " covered by ellipsis in operand " +
               std::to_string(operand) + "has size " + std::to_string(size) +
               " which does not broadcast with previously seen ellipsis with size " +
               std::to_string(seen) + " for the respective dimension");
}

void checkBroadcast(const std::vector<Operand>& ops, const Layout& layout,
                    const std::vector<int>& covered) {
    for (size_t g = 0; g < layout.ids.size(); ++g) {
        int64_t seen = 1;
        for (size_t i = 0; i < ops.size(); ++i) {
            int64_t size = ops[i].t.sizes()[g];
            if (size == 1) continue;
            if (seen != 1 && size != seen)
                failBroadcast(layout, static_cast<int>(g), i, size, seen, covered[i]);
            seen = size;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Contraction

/// Dims in `dims` order moved to the front, then everything else, reshaped to `shape`.
Tensor gatherDims(const Tensor& t, const std::vector<DimVector>& groups, IntList shape) {
    DimVector order;
    for (const DimVector& group : groups)
        for (int64_t d : group)
            order.push_back(d);
    return reshape(permute(t, order), shape);
}

int64_t sizeProduct(const Tensor& t, const DimVector& dims) {
    int64_t n = 1;
    for (int64_t d : dims)
        n *= t.sizes()[d];
    return n;
}

/// a * b summed over the dims marked in `sumHere` (kept as size 1).
Tensor contractPair(Tensor a, Tensor b, const std::vector<char>& sumHere) {
    const int64_t rank = a.dim();
    DimVector aOnly, bOnly;
    for (int64_t g = 0; g < rank; ++g) {
        bool ia = a.sizes()[g] != 1, ib = b.sizes()[g] != 1;
        if (sumHere[g] && ia && !ib) aOnly.push_back(g);
        if (sumHere[g] && ib && !ia) bOnly.push_back(g);
    }
    if (!aOnly.empty()) a = sum(a, aOnly, true, a.dtype());
    if (!bOnly.empty()) b = sum(b, bOnly, true, b.dtype());
    DimVector batch, left, right, contracted, rest;
    for (int64_t g = 0; g < rank; ++g) {
        bool ia = a.sizes()[g] != 1, ib = b.sizes()[g] != 1;
        DimVector& group = ia && ib ? (sumHere[g] ? contracted : batch)
                           : ia     ? left
                           : ib     ? right
                                    : rest;
        group.push_back(g);
    }
    if (contracted.empty()) return binary(BinaryOp::Mul, a, b);
    const int64_t nb = sizeProduct(a, batch), nl = sizeProduct(a, left);
    const int64_t nk = sizeProduct(a, contracted), nr = sizeProduct(b, right);
    Tensor a3 = gatherDims(a, {batch, left, contracted, right, rest}, DimVector{nb, nl, nk});
    Tensor b3 = gatherDims(b, {batch, contracted, right, left, rest}, DimVector{nb, nk, nr});
    Tensor product = bmm(a3, b3);
    // Back to every global dim: [batch, left, right] sized, the contracted and rest dims as 1.
    DimVector order, shape;
    for (const DimVector* group : {&batch, &left, &right, &contracted, &rest})
        for (int64_t g : *group) {
            order.push_back(g);
            shape.push_back(group == &batch || group == &left ? a.sizes()[g]
                            : group == &right                 ? b.sizes()[g]
                                                              : 1);
        }
    DimVector inverse(static_cast<size_t>(rank));
    for (int64_t i = 0; i < rank; ++i)
        inverse[order[i]] = i;
    return permute(reshape(product, shape), inverse);
}

/// Whether global dim g is still needed after operand `k`: in the output or a later operand.
std::vector<char> neededAfter(const std::vector<Operand>& ops, size_t k,
                              const std::vector<char>& inOutput) {
    std::vector<char> needed = inOutput;
    for (size_t j = k + 1; j < ops.size(); ++j)
        for (size_t g = 0; g < needed.size(); ++g)
            needed[g] = needed[g] || ops[j].present[g];
    return needed;
}

/// Sums dims that only one operand uses and the output does not keep.
void sumPrivateDims(std::vector<Operand>& ops, const std::vector<char>& inOutput, bool& summed) {
    for (size_t i = 0; i < ops.size(); ++i) {
        DimVector dims;
        for (size_t g = 0; g < inOutput.size(); ++g) {
            bool elsewhere = inOutput[g];
            for (size_t j = 0; j < ops.size() && !elsewhere; ++j)
                elsewhere = j != i && ops[j].present[g];
            if (ops[i].present[g] && !elsewhere) dims.push_back(static_cast<int64_t>(g));
        }
        if (dims.empty()) continue;
        // A lone operand sums like torch.sum (integers widen to int64); pairs keep their dtype.
        std::optional<DType> dtype;
        if (ops.size() > 1) dtype = ops[i].t.dtype();
        ops[i].t = sum(ops[i].t, dims, true, dtype);
        for (int64_t g : dims)
            ops[i].present[g] = 0;
        summed = true;
    }
}

/// The rank-G result permuted to the output's order and stripped of its size-1 extra dims.
Tensor toOutput(const Tensor& result, const Term& output, const Layout& layout) {
    DimVector order, shape;
    std::vector<char> used(layout.ids.size(), 0);
    auto take = [&](int id) {
        int g = layout.position[id];
        order.push_back(g);
        shape.push_back(result.sizes()[g]);
        used[g] = 1;
    };
    for (size_t i = 0; i <= output.letters.size(); ++i) {
        if (static_cast<int>(i) == output.ellipsisAt)
            for (int k = 0; k < layout.ellipsisDims; ++k)
                take(kLetters + k);
        if (i < output.letters.size()) take(output.letters[i]);
    }
    for (size_t g = 0; g < used.size(); ++g)
        if (!used[g]) order.push_back(static_cast<int64_t>(g));
    return reshape(permute(result, order), shape);
}

/// Contracts the operands left to right, summing each dim after the last operand that uses it.
/// `lastSummed` tells whether the final pair summed anything (torch then ends with a bmm and a
/// view, otherwise with a multiply).
Tensor contractAll(const std::vector<Operand>& ops, const std::vector<char>& inOutput,
                   bool& lastSummed) {
    Tensor result = ops[0].t;
    std::vector<char> present = ops[0].present;
    for (size_t k = 1; k < ops.size(); ++k) {
        std::vector<char> needed = neededAfter(ops, k, inOutput), sumHere(needed.size(), 0);
        lastSummed = false;
        for (size_t g = 0; g < needed.size(); ++g) {
            bool used = present[g] || ops[k].present[g];
            sumHere[g] = !needed[g];
            lastSummed = lastSummed || (sumHere[g] && used);
            present[g] = used && needed[g];
        }
        result = contractPair(result, ops[k].t, sumHere);
    }
    return result;
}

} // namespace

Tensor einsum(const std::string& equation, const std::vector<Tensor>& operands) {
    if (operands.empty())
        fail(ErrorKind::ValueError, "einsum(): must specify the equation string and at least one "
                                    "operand, or at least one operand and its subscripts list");
    Equation e = parseEquation(equation, operands.size());
    std::vector<int> covered;
    for (size_t i = 0; i < operands.size(); ++i)
        covered.push_back(ellipsisCount(e.inputs[i], operands[i].dim(), i));
    Layout layout = buildLayout(e, covered);
    std::vector<Operand> ops;
    for (size_t i = 0; i < operands.size(); ++i)
        ops.push_back(alignOperand(operands[i], e.inputs[i], covered[i], layout, i));
    checkBroadcast(ops, layout, covered);
    std::vector<char> inOutput(layout.ids.size(), 0);
    for (int l : e.output.letters)
        inOutput[layout.position[l]] = 1;
    if (e.output.ellipsisAt >= 0)
        for (int k = 0; k < layout.ellipsisDims; ++k)
            inOutput[layout.position[kLetters + k]] = 1;
    bool summed = false, lastSummed = false;
    sumPrivateDims(ops, inOutput, summed);
    Tensor result = contractAll(ops, inOutput, lastSummed);
    Tensor out = toOutput(result, e.output, layout);
    // The node torch's einsum ends with for this shape of computation.
    renameGradFn(out, ops.size() > 1 ? (lastSummed ? "ViewBackward0" : "MulBackward0")
                      : summed       ? "SumBackward1"
                                     : "PermuteBackward0");
    return out;
}

} // namespace kiln::tensor
