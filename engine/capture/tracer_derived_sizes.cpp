// SPDX-License-Identifier: MIT
// Derived sizes: the sizes of op results that depend on the trace's size symbols in ways the
// trace cannot write in them (a slice by a SymInt, max_pool2d of a dynamic image), read from
// the tensor when the graph runs; the guards 2.3's slicing adds; and the specialization of a
// symbol broadcast against a static size.
#include "capture/sym_ints.h"
#include "capture/tracer.h"
#include "capture/value_kinds.h"
#include "lang/types.h"

#include <algorithm>
#include <map>
#include <set>

namespace kiln::capture {

using lang::ObjectKind;
using lang::Value;

std::optional<std::vector<int64_t>> Tracer::symbolicSliceDims(int64_t inputDims,
                                                              const Value& index) const {
    const std::vector<Value> items =
        index.is(ObjectKind::Tuple) ? sequenceItems(index) : std::vector<Value>{index};
    const Value ellipsis = lang::ellipsisValue();
    int64_t consumed = 0;
    for (const Value& i : items) {
        if (i.isTensor() || i.is(ObjectKind::List)) return std::nullopt; // advanced indexing
        if (!i.isNone() && !i.identical(ellipsis)) ++consumed;
    }
    std::vector<int64_t> dims;
    int64_t out = 0;
    for (const Value& i : items) {
        if (i.isNone()) {
            ++out;
        } else if (i.identical(ellipsis)) {
            out += std::max<int64_t>(0, inputDims - consumed);
        } else if (i.is(ObjectKind::Slice)) {
            if (holdsSymInt(i)) dims.push_back(out);
            ++out;
        }
        // an int (or a SymInt) index takes its dim away
    }
    return dims;
}

void Tracer::guardPartialSlices(const tensor::Tensor& input, const Value& index) {
    // x[:s] over a dim of static size n: 2.3's slice decides whether it is the whole dim
    // (s == n returns x itself), which guards Ne(s, n) on an entry traced with s != n. A call
    // with s == n then compiles again (nanoGPT's bias[:, :, :T, :T] once T reaches block_size).
    const std::vector<Value> items =
        index.is(ObjectKind::Tuple) ? sequenceItems(index) : std::vector<Value>{index};
    const Value ellipsis = lang::ellipsisValue();
    int64_t consumed = 0;
    for (const Value& i : items)
        if (!i.isNone() && !i.identical(ellipsis)) ++consumed;
    int64_t dim = 0;
    for (const Value& i : items) {
        if (i.isNone()) continue;
        if (i.identical(ellipsis)) {
            dim += std::max<int64_t>(0, input.dim() - consumed);
            continue;
        }
        if (dim >= input.dim()) return;
        if (i.is(ObjectKind::Slice)) {
            const auto* slice = i.as<lang::SliceObject>();
            auto stop = symIntOf(m_interp, slice->stop);
            if (slice->start.isNone() && slice->step.isNone() && stop && stop->hint >= 0 &&
                stop->hint != input.size(dim))
                guardSymCompare(lang::CompareOperator::NotEq, slice->stop,
                                Value::fromInt(input.size(dim)), true);
        }
        ++dim;
    }
}

void Tracer::deriveSizes(int32_t node, std::span<const Value> args, bool getItem) {
    // The SymInts among the arguments: their text, value and roots.
    struct Used {
        std::string text;
        int64_t hint;
        std::vector<std::string> roots;
    };
    std::vector<Used> used;
    auto collect = [&](const Value& v, int depth, auto& self) -> void {
        if (depth > 4) return;
        if (auto s = symIntOf(m_interp, v)) {
            if (s->trace != m_serial || !s->value.isInt()) return;
            const graph::Node& n = m_graph.nodes[static_cast<size_t>(s->node)];
            auto roots = m_symRoots.find(s->node);
            used.push_back(
                Used{n.meta.sizes.empty() ? std::string() : n.meta.sizes[0].str(), s->hint,
                     roots == m_symRoots.end() ? std::vector<std::string>() : roots->second});
        } else if (v.is(ObjectKind::Slice)) {
            const auto* slice = v.as<lang::SliceObject>();
            for (const Value& part : {slice->start, slice->stop, slice->step})
                self(part, depth + 1, self);
        } else if (v.is(ObjectKind::List) || v.is(ObjectKind::Tuple)) {
            for (const Value& item : sequenceItems(v))
                self(item, depth + 1, self);
        }
    };
    for (const Value& a : args)
        collect(a, 0, collect);
    if (used.empty()) return;
    graph::ValueMeta& meta = m_graph.nodes[static_cast<size_t>(node)].meta;
    if (meta.kind != graph::ValueMeta::Kind::Tensor) return;
    std::vector<std::string> allRoots;
    for (const Used& u : used)
        allRoots.insert(allRoots.end(), u.roots.begin(), u.roots.end());
    auto derive = [&](graph::Dim& d, std::string name, std::vector<std::string> roots) {
        if (name.empty() || derivedSize(name) == nullptr) {
            if (name.empty()) name = "d" + std::to_string(m_derivedSizes.size());
            m_derivedSizes.push_back(DerivedSize{name, d.value, std::move(roots)});
        }
        d.symbol = name;
    };
    std::optional<std::vector<int64_t>> sliced;
    if (getItem && args.size() == 2 && args[0].isTensor()) {
        sliced = symbolicSliceDims(args[0].asTensor().dim(), args[1]);
        if (sliced) guardPartialSlices(args[0].asTensor(), args[1]);
    }
    if (sliced) {
        // x[:pos + 1]: the size is the slice's length, which clamps to the dim; named by the
        // stop's text only when that is the length (no start, no step).
        const bool oneSlice = used.size() == 1 && args[1].is(ObjectKind::Slice) &&
                              args[1].as<lang::SliceObject>()->start.isNone() &&
                              args[1].as<lang::SliceObject>()->step.isNone();
        for (int64_t d : *sliced)
            if (d < static_cast<int64_t>(meta.sizes.size()) &&
                !meta.sizes[static_cast<size_t>(d)].isSymbolic()) {
                graph::Dim& dim = meta.sizes[static_cast<size_t>(d)];
                const bool named = oneSlice && dim.value == used[0].hint;
                derive(dim, named ? used[0].text : std::string(), allRoots);
            }
        return;
    }
    for (graph::Dim& d : meta.sizes) {
        if (d.isSymbolic()) continue;
        for (const Used& u : used)
            if (u.hint == d.value && d.value > 1) {
                derive(d, u.text, u.roots);
                break;
            }
    }
}

void Tracer::deriveUnknownSizes(graph::ValueMeta& meta, const graph::Node& producer) {
    if (meta.kind != graph::ValueMeta::Kind::Tensor || m_symbols.empty()) return;
    std::set<int64_t> known; // sizes the result may have taken from its inputs or arguments
    std::vector<std::string> roots;
    const graph::ValueMeta* first = nullptr; // the first tensor input
    std::map<int64_t, std::string> symbolic; // an input's symbolic size by value ("" if two)
    auto addTensorSizes = [&](const graph::ValueMeta& m) {
        if (!first) first = &m;
        for (const graph::Dim& d : m.sizes) {
            if (!d.isSymbolic() || specializedSymbol(d.symbol)) {
                known.insert(d.value);
                continue;
            }
            auto [it, added] = symbolic.emplace(d.value, d.symbol);
            if (!added && it->second != d.symbol) it->second.clear();
            const DerivedSize* derived = derivedSize(d.symbol);
            if (derived)
                roots.insert(roots.end(), derived->roots.begin(), derived->roots.end());
            else
                roots.push_back(d.symbol);
        }
    };
    auto addValue = [&](const Value& v) {
        if (v.isTensor()) {
            for (int64_t size : v.asTensor().sizes())
                known.insert(size);
        } else if (v.isIntLike()) {
            known.insert(v.asInt());
        }
    };
    auto scan = [&](const graph::Arg& a, int depth, auto& self) -> void {
        if (depth > 4) return;
        if (a.kind == graph::Arg::Kind::Node) {
            const graph::Node& n = m_graph.nodes[static_cast<size_t>(a.node)];
            if (n.meta.kind == graph::ValueMeta::Kind::Tensor) addTensorSizes(n.meta);
            // x.size() passed whole (y.reshape(x.shape)): x's sizes.
            if (n.meta.kind == graph::ValueMeta::Kind::Other && n.target == "size" &&
                n.args.size() == 1)
                self(n.args[0], depth + 1, self);
        } else if (a.kind == graph::Arg::Kind::Constant) {
            addValue(a.constant);
            if (a.constant.is(ObjectKind::Tuple) || a.constant.is(ObjectKind::List))
                for (const Value& item : sequenceItems(a.constant))
                    addValue(item);
        }
        for (const graph::Arg& item : a.items)
            self(item, depth + 1, self);
    };
    for (const graph::Arg& a : producer.args)
        scan(a, 0, scan);
    for (const auto& kw : producer.kwargs)
        scan(kw.second, 0, scan);
    if (roots.empty()) return; // no symbolic input: every size is what it was traced with
    if (producer.op == graph::NodeOp::CallModule && !producer.callable.isEmpty()) {
        // A module's own numbers: its parameters' and buffers' sizes, its int settings
        // (nn.Linear's out_features, nn.Upsample's size).
        Value dict = m_interp.tryGetAttr(producer.callable, lang::Symbol::intern("__dict__"));
        if (dict.is(ObjectKind::Dict))
            dict.as<lang::DictObject>()->forEach([&](const Value&, const Value& v) {
                addValue(v);
                if (v.is(ObjectKind::Tuple) || v.is(ObjectKind::List))
                    for (const Value& item : sequenceItems(v))
                        addValue(item);
                if (v.is(ObjectKind::Dict)) // _parameters, _buffers
                    v.as<lang::DictObject>()->forEach(
                        [&](const Value&, const Value& t) { addValue(t); });
            });
    }
    for (size_t i = 0; i < meta.sizes.size(); ++i) {
        graph::Dim& d = meta.sizes[i];
        if (d.isSymbolic() || d.value <= 1) continue;
        // An input's symbolic size moved (x.transpose(1, 2) of [s0, 24, d9]): its name.
        if (auto it = symbolic.find(d.value); it != symbolic.end() && !it->second.empty()) {
            d.symbol = it->second;
            continue;
        }
        if (known.count(d.value)) continue;
        // Where the first input has the result's rank, a dim that is static there stays
        // static (x.chunk(2, -1) of a static last dim, a strided conv over a static width).
        if (first && first->sizes.size() == meta.sizes.size() && !first->sizes[i].isSymbolic() &&
            !symbolic.count(d.value))
            continue;
        d.symbol = "d" + std::to_string(m_derivedSizes.size());
        m_derivedSizes.push_back(DerivedSize{d.symbol, d.value, roots, false});
    }
}

bool Tracer::specializedSymbol(const std::string& symbol) const {
    const DerivedSize* derived = derivedSize(symbol);
    for (const SymbolInfo& s : m_symbols)
        if (s.specialized &&
            (s.name == symbol ||
             (derived && std::count(derived->roots.begin(), derived->roots.end(), s.name))))
            return true;
    return false;
}

namespace {

/// Ops whose tensor inputs broadcast against each other (by the target's name: operator.mul,
/// torch.mul, Tensor.mul_, operator.imul, torch.where, Tensor.masked_fill, ...).
bool broadcastsInputs(std::string_view target) {
    static const std::set<std::string_view> names = {
        "add",         "sub",         "mul",          "div",         "truediv",    "floordiv",
        "mod",         "pow",         "and_",         "or_",         "xor",        "eq",
        "ne",          "lt",          "le",           "gt",          "ge",         "where",
        "maximum",     "minimum",     "masked_fill",  "remainder",   "fmod",       "atan2",
        "rsub",        "true_divide", "floor_divide", "bitwise_and", "bitwise_or", "bitwise_xor",
        "logical_and", "logical_or",  "logical_xor",  "hypot",       "lerp",       "addcmul",
        "addcdiv",     "fmax",        "fmin",         "copysign"};
    for (std::string_view prefix : {"torch.", "operator."})
        if (target.starts_with(prefix)) target.remove_prefix(prefix.size());
    if (target.starts_with("<built-in function ")) {
        target.remove_prefix(19);
        if (target.ends_with(">")) target.remove_suffix(1);
    }
    if (target.starts_with("__") && target.ends_with("__") && target.size() > 4)
        target = target.substr(2, target.size() - 4);
    if (target.size() > 1 && target.back() == '_' && target != "and_" && target != "or_")
        target.remove_suffix(1);
    if (target.starts_with("i") && names.count(target.substr(1))) target.remove_prefix(1);
    return names.count(target) > 0;
}

} // namespace

bool Tracer::symbolFree(int32_t node) {
    // Decided by the graph's structure, not by the sizes in node metadata: those name a static
    // dim after a symbol of equal value (a static mask's [4, 12] as [s0, s1]).
    if (auto it = m_symbolFree.find(node); it != m_symbolFree.end()) return it->second;
    const graph::Node& n = m_graph.nodes[static_cast<size_t>(node)];
    bool free = n.meta.kind != graph::ValueMeta::Kind::SymInt;
    if (n.op == graph::NodeOp::Placeholder)
        for (const graph::Dim& d : n.meta.sizes)
            free = free && !d.isSymbolic();
    // x.type_as(h) and x.to(h) take only h's dtype and device: their sizes are x's.
    const bool dtypeOnly = n.target == "type_as" || n.target == "to";
    auto scan = [&](const graph::Arg& a, auto& self) -> void {
        if (!free) return;
        if (a.kind == graph::Arg::Kind::Node) free = symbolFree(a.node);
        for (const graph::Arg& item : a.items)
            self(item, self);
    };
    for (size_t i = 0; i < n.args.size() && (i == 0 || !dtypeOnly); ++i)
        scan(n.args[i], scan);
    for (const auto& kw : n.kwargs)
        scan(kw.second, scan);
    m_symbolFree[node] = free;
    return free;
}

void Tracer::specializeBroadcastSymbols(const graph::Node& op) {
    // Broadcasting a size symbol against a static size of 2 or more makes them equal; Dynamo's
    // shape env records Eq(s0, n) and specializes s0 (x[s0, 1] * m[2, 1] compiles a static
    // graph). Only sizes that no symbol reaches count as static: a size Kiln knows only by its
    // value (a slice, a derived size) may be a symbol in Dynamo.
    // Answered for every node as it is recorded, so that later answers never recurse deeply.
    const int32_t self = static_cast<int32_t>(&op - m_graph.nodes.data());
    symbolFree(self);
    if (m_symbols.empty() || !broadcastsInputs(op.target)) return;
    std::vector<int32_t> inputs;
    auto collect = [&](const graph::Arg& a) {
        if (a.kind == graph::Arg::Kind::Node &&
            m_graph.nodes[static_cast<size_t>(a.node)].meta.kind == graph::ValueMeta::Kind::Tensor)
            inputs.push_back(a.node);
    };
    for (const graph::Arg& a : op.args)
        collect(a);
    for (const auto& kw : op.kwargs)
        collect(kw.second);
    for (int32_t a : inputs) {
        const auto& sizes = m_graph.nodes[static_cast<size_t>(a)].meta.sizes;
        for (int32_t b : inputs) {
            if (a == b || !symbolFree(b)) continue;
            const auto& fixed = m_graph.nodes[static_cast<size_t>(b)].meta.sizes;
            for (size_t k = 1; k <= std::min(sizes.size(), fixed.size()); ++k) {
                const graph::Dim& d = sizes[sizes.size() - k];
                if (fixed[fixed.size() - k].value < 2 || !d.isSymbolic()) continue;
                for (SymbolInfo& s : m_symbols)
                    if (s.name == d.symbol) s.specialized = true;
            }
        }
    }
}

} // namespace kiln::capture
