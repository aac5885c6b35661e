// SPDX-License-Identifier: MIT
// Dynamic shapes in a trace: the size symbols of dynamic input dims (s0, s1, ...), sizes read as
// SymInts and the int arithmetic on them recorded as graph nodes, and the specialisation of the
// symbols whose Python value the frame needed.
#include "capture/sym_ints.h"
#include "capture/tracer.h"
#include "capture/value_kinds.h"
#include "lang/types.h"

#include <algorithm>

namespace kiln::capture {

using lang::CallArgs;
using lang::ObjectKind;
using lang::Value;

// --- dynamic shapes

void Tracer::newSymbol(const SourcePtr& source, int64_t dim, int64_t hint) {
    SymbolInfo s;
    s.hint = hint;
    s.source = source;
    s.dim = dim;
    const SymbolInfo* same = dim >= 0 ? duckSymbol(hint) : nullptr;
    if (same) {
        s.name = same->name;
        s.duck = true;
    } else {
        s.name = nextSymbolName();
    }
    m_symbols.push_back(std::move(s));
}

std::string Tracer::nextSymbolName() const {
    // Stand-in names of unused int inputs start with '?' and take no number.
    return "s" + std::to_string(
                     std::count_if(m_symbols.begin(), m_symbols.end(), [](const SymbolInfo& x) {
                         return !x.duck && !x.name.starts_with('?');
                     }));
}

void Tracer::useSymInt(int32_t node) {
    auto unused = m_unusedIntSymbols.find(node);
    if (unused == m_unusedIntSymbols.end()) return;
    const std::string standIn = unused->second;
    m_unusedIntSymbols.erase(unused);
    const std::string name = nextSymbolName();
    // Symbols stay in the order they were named (TORCH_LOGS=dynamic lists them so).
    auto info = std::find_if(m_symbols.begin(), m_symbols.end(),
                             [&](const SymbolInfo& x) { return x.name == standIn; });
    KILN_ASSERT(info != m_symbols.end(), "an unused int input has a symbol");
    SymbolInfo symbol = std::move(*info);
    m_symbols.erase(info);
    symbol.name = name;
    m_symbols.push_back(std::move(symbol));
    for (Guard& g : m_guards.guards)
        if (g.kind() == Guard::Kind::DimAtLeast && g.symbol() == standIn) {
            GuardOrigin origin = g.origin;
            g = Guard::dimAtLeast(g.source(), -1, 2, name);
            g.origin = std::move(origin);
        }
    m_graph.nodes[static_cast<size_t>(node)].meta.sizes.at(0).symbol = name;
    m_symRoots[node] = {name};
    m_inputUseOrder.emplace(node, m_inputUseOrder.size());
}

std::optional<SymIntView> Tracer::ownSymInt(const Value& v) {
    auto s = symIntOf(m_interp, v);
    if (!s || s->trace != m_serial) return std::nullopt;
    useSymInt(s->node);
    return s;
}

void Tracer::nameUnusedIntSymbols() {
    std::vector<int32_t> unused;
    for (const auto& [node, standIn] : m_unusedIntSymbols)
        unused.push_back(node);
    std::sort(unused.begin(), unused.end());
    for (int32_t node : unused)
        useSymInt(node);
}

const SymbolInfo* Tracer::duckSymbol(int64_t hint) const {
    for (const SymbolInfo& s : m_symbols)
        if (!s.duck && !s.specialized && s.dim >= 0 && s.hint == hint) return &s;
    return nullptr;
}

const SymbolInfo* Tracer::symbolInfo(const Source& source, int64_t dim) const {
    std::string key = source.str();
    for (const SymbolInfo& s : m_symbols)
        if (s.dim == dim && s.source->str() == key) return &s;
    return nullptr;
}

std::string Tracer::symbolFor(const Source& source, int64_t dim) const {
    std::string key = source.str();
    for (const SymbolInfo& s : m_symbols)
        if (s.dim == dim && s.source->str() == key) return s.name;
    return {};
}

void Tracer::symbolise(graph::ValueMeta& meta) const {
    if (m_symbols.empty()) return;
    for (graph::Dim& d : meta.sizes) {
        const std::string* match = nullptr;
        int matches = 0;
        for (const SymbolInfo& s : m_symbols)
            if (!s.duck && !s.specialized && s.dim >= 0 && s.hint == d.value) {
                match = &s.name;
                ++matches;
            }
        for (const DerivedSize& s : m_derivedSizes)
            if (s.matchByValue && s.hint == d.value && (!match || *match != s.name)) {
                match = &s.name;
                ++matches;
            }
        if (matches == 1) d.symbol = *match;
    }
}

const DerivedSize* Tracer::derivedSize(const std::string& name) const {
    for (const DerivedSize& s : m_derivedSizes)
        if (s.name == name) return &s;
    return nullptr;
}

void Tracer::applySpecializations() {
    std::unordered_set<std::string> specialized;
    for (const SymbolInfo& s : m_symbols)
        if (s.specialized) specialized.insert(s.name);
    if (specialized.empty()) return;
    std::erase_if(m_guards.guards, [&](const Guard& g) {
        return (g.kind() == Guard::Kind::DimAtLeast || g.kind() == Guard::Kind::DimEquals) &&
               specialized.count(g.symbol());
    });
    for (const PlaceholderRecord& p : m_placeholders) {
        if (!p.value.isTensor()) {
            // A specialised int input: its value is guarded instead of its type.
            if (!specialized.count(symbolFor(*p.source, -1))) continue;
            for (Guard& g : m_guards.guards)
                if (g.kind() == Guard::Kind::TypeMatch && g.source()->str() == p.source->str()) {
                    GuardOrigin origin = g.origin;
                    g = Guard::equalsMatch(p.source, p.value);
                    g.origin = std::move(origin);
                }
            continue;
        }
        tensor::Tensor t = p.value.asTensor();
        std::vector<bool> dynamic(static_cast<size_t>(t.dim()), false);
        for (const SymbolInfo& s : m_symbols)
            if (!s.specialized && s.dim >= 0 && s.source->str() == p.source->str())
                dynamic[static_cast<size_t>(s.dim)] = true;
        for (Guard& g : m_guards.guards) {
            if (g.kind() != Guard::Kind::TensorMatch || g.source()->str() != p.source->str())
                continue;
            GuardOrigin origin = g.origin;
            g = Guard::tensorMatch(p.source, t, dynamic);
            g.origin = std::move(origin);
        }
    }
    // A derived size is static once a symbol it came from is.
    for (const DerivedSize& s : m_derivedSizes)
        if (std::any_of(s.roots.begin(), s.roots.end(),
                        [&](const std::string& r) { return specialized.count(r) > 0; }))
            specialized.insert(s.name);
    for (graph::Node& n : m_graph.nodes)
        for (graph::Dim& d : n.meta.sizes)
            if (specialized.count(d.symbol)) d.symbol.clear();
}

void Tracer::liftSizeSymbols() {
    // Dynamo 2.3 passes each free size symbol as a graph input of its own (`s0: Sym(s0)`, its
    // example a SymInt), just before the input tensor that introduced it; a duck-sized dim
    // shares the earlier one's. The graph still reads sizes from its tensors (x.size(0) nodes).
    // Inputs come in the order the trace first used them: Dynamo 2.3 wraps a local lazily and
    // realizes it (its placeholder, its size symbols) when an op first uses it. Kiln makes a
    // tensor's placeholder then too, and a dynamic int's at entry (named at first use).
    auto useOrder = [&](const PlaceholderRecord& p) {
        auto it = m_inputUseOrder.find(p.node);
        return it == m_inputUseOrder.end() ? m_inputUseOrder.size() : it->second;
    };
    std::stable_sort(m_placeholders.begin(), m_placeholders.end(),
                     [&](const PlaceholderRecord& a, const PlaceholderRecord& b) {
                         return useOrder(a) < useOrder(b);
                     });
    std::vector<PlaceholderRecord> ordered;
    for (const PlaceholderRecord& p : m_placeholders) {
        if (p.value.isTensor())
            for (const SymbolInfo& s : m_symbols) {
                if (s.specialized || s.duck || s.dim < 0 || s.source->str() != p.source->str())
                    continue;
                graph::Node n;
                n.op = graph::NodeOp::Placeholder;
                n.target = s.name;
                n.name = s.name;
                n.sourceName = Source::size(p.source, s.dim)->str();
                n.meta.kind = graph::ValueMeta::Kind::SymInt;
                n.meta.sizes = {graph::Dim{s.hint, s.name}};
                ordered.push_back(
                    {addNode(std::move(n)), Value::fromInt(s.hint), Source::size(p.source, s.dim)});
            }
        ordered.push_back(p);
    }
    m_placeholders = std::move(ordered);
}

std::vector<int32_t> Tracer::placeholderOrder() const {
    std::vector<int32_t> nodes;
    for (const PlaceholderRecord& p : m_placeholders)
        nodes.push_back(p.node);
    return nodes;
}

// --- SymInts

Value Tracer::intPlaceholder(const Value& v, const SourcePtr& source) {
    // Named when the trace first uses it (useSymInt); a stand-in name until then.
    const std::string symbol = "?" + source->str();
    SymbolInfo info;
    info.name = symbol;
    info.hint = v.asInt();
    info.source = source;
    info.dim = -1;
    m_symbols.push_back(std::move(info));
    addGuard(Guard::typeMatch(source, m_interp.typeOf(v)));
    addGuard(Guard::dimAtLeast(source, -1, 2, symbol));
    graph::Node n;
    n.op = graph::NodeOp::Placeholder;
    n.target = source->identifier();
    n.name = n.target;
    std::transform(n.name.begin(), n.name.end(), n.name.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    n.sourceName = source->str();
    n.meta.kind = graph::ValueMeta::Kind::SymInt;
    n.meta.sizes = {graph::Dim{v.asInt(), symbol}};
    const int32_t node = addNode(std::move(n));
    m_placeholders.push_back(PlaceholderRecord{node, v, source});
    m_symRoots[node] = {symbol};
    m_unusedIntSymbols.emplace(node, symbol);
    m_symExprs[node] = SymExpr::intInput(source);
    return makeSymInt(m_interp, m_serial, node, v.asInt());
}

Value Tracer::metadataRead(const lang::NativeFunctionObject& fn, const CallArgs& args,
                           Value result) {
    if (args.positional.empty() || !args.positional[0].isTensor()) return result;
    // An input read before any op used it becomes its placeholder now, so its dynamic dims are
    // known (and its sizes guarded).
    const Value& tensor = args.positional[0];
    int32_t node = nodeOf(tensor);
    if (node < 0) {
        auto src = m_tensorSources.find(tensor.tensorImpl());
        if (src == m_tensorSources.end()) return result;
        node = placeholderFor(tensor, src->second);
    }
    // A copy: symbolicSize() adds nodes, which may move the graph's node storage.
    const graph::ValueMeta meta = m_graph.nodes[static_cast<size_t>(node)].meta;
    // A symbol specialised earlier in the trace (broadcast against a static size, read as an
    // int) is a static size from then on, as in Dynamo's shape env.
    auto live = [&](const graph::Dim& d) { return d.isSymbolic() && !specializedSymbol(d.symbol); };
    const bool symbolic = std::any_of(meta.sizes.begin(), meta.sizes.end(), live);
    if (!symbolic) return result;
    if ((fn.name == "size" && args.positional.size() == 1 && args.keywordNames.empty()) ||
        fn.name == "shape") {
        // A torch.Size whose symbolic dims are SymInts: Dynamo records x.size() (x.shape
        // too) and an operator.getitem of it per dim, static ones included (they take names,
        // size[1] is getitem_1); it drops the getitems nobody reads before it compiles.
        if (!result.is(ObjectKind::Tuple)) return result;
        std::vector<Value> items = result.as<lang::TupleObject>()->items;
        const int32_t whole = sizeNode(node, std::nullopt);
        for (size_t d = 0; d < items.size() && d < meta.sizes.size(); ++d)
            if (live(meta.sizes[d]))
                items[d] = symbolicSize(node, static_cast<int64_t>(d), whole);
            else
                staticSizeItem(whole, static_cast<int64_t>(d), meta.sizes[d].value);
        Value size(makeRef<lang::TupleObject>(std::move(items), result.asObject()->type()));
        m_sizeTuples[size.asObject()] = {size, whole};
        return size;
    }
    if (fn.name == "size" && result.isIntLike()) {
        int64_t dim =
            args.positional.size() > 1 ? args.positional[1].asInt() : args.keywordValues[0].asInt();
        if (dim < 0) dim += static_cast<int64_t>(meta.sizes.size());
        if (dim >= 0 && dim < static_cast<int64_t>(meta.sizes.size()) &&
            live(meta.sizes[static_cast<size_t>(dim)]))
            return symbolicSize(node, dim, -1);
        return result;
    }
    // What does not depend on the sizes (x.dtype, x.device for torch.arange(t, device=...),
    // x.dim()) leaves them dynamic, as in Dynamo.
    static constexpr std::string_view kSizeFree[] = {
        "dtype",      "device",       "dim",           "ndim",
        "ndimension", "is_cuda",      "layout",        "is_complex",
        "is_signed",  "element_size", "itemsize",      "get_device",
        "is_leaf",    "grad_fn",      "requires_grad", "is_floating_point",
        "is_sparse",  "is_quantized", "is_meta"};
    if (std::find(std::begin(kSizeFree), std::end(kSizeFree), fn.name) != std::end(kSizeFree))
        return result;
    // numel(), len(), ...: a Python int computed from every size.
    for (const graph::Dim& d : meta.sizes) {
        const DerivedSize* derived = derivedSize(d.symbol);
        for (SymbolInfo& s : m_symbols)
            if (d.symbol == s.name ||
                (derived && std::count(derived->roots.begin(), derived->roots.end(), s.name)))
                s.specialized = true;
    }
    return result;
}

int32_t Tracer::sizeNode(int32_t tensorNode, std::optional<int64_t> dim) {
    graph::Node n;
    n.op = graph::NodeOp::CallMethod;
    n.target = "size";
    n.name = "size";
    n.args = {graph::Arg::ofNode(tensorNode)};
    if (dim) n.args.push_back(graph::Arg::ofConstant(Value::fromInt(*dim)));
    n.meta.kind = dim ? graph::ValueMeta::Kind::SymInt : graph::ValueMeta::Kind::Other;
    return addNode(std::move(n));
}

int32_t Tracer::sizeItemNode(int32_t wholeSize, int64_t dim, const graph::Dim& size) {
    graph::Node n;
    n.op = graph::NodeOp::CallFunction;
    n.operatorKind = graph::OperatorKind::GetItem;
    n.target = "operator.getitem";
    n.name = "getitem";
    n.args = {graph::Arg::ofNode(wholeSize), graph::Arg::ofConstant(Value::fromInt(dim))};
    n.meta.kind = graph::ValueMeta::Kind::SymInt;
    n.meta.sizes = {size};
    return addNode(std::move(n));
}

void Tracer::staticSizeItem(int32_t wholeSize, int64_t dim, int64_t value) {
    sizeItemNode(wholeSize, dim, graph::Dim{value, {}}); // the script reads the int instead
}

Value Tracer::symbolicSize(int32_t tensorNode, int64_t dim, int32_t wholeSize) {
    const graph::Dim size =
        m_graph.nodes[static_cast<size_t>(tensorNode)].meta.sizes.at(static_cast<size_t>(dim));
    // A node per read, as Dynamo records one per x.size(d) call.
    const int32_t node =
        wholeSize < 0 ? sizeNode(tensorNode, dim) : sizeItemNode(wholeSize, dim, size);
    m_graph.nodes[static_cast<size_t>(node)].meta.sizes = {size};
    const DerivedSize* derived = derivedSize(size.symbol);
    m_symRoots[node] = derived ? derived->roots : std::vector<std::string>{size.symbol};
    for (const SymbolInfo& s : m_symbols)
        if (s.name == size.symbol && s.dim >= 0 && !s.duck)
            m_symExprs[node] = SymExpr::size(s.source, s.dim);
    return makeSymInt(m_interp, m_serial, node, size.value);
}

std::string Tracer::symbolicText(lang::BinaryOperator code, const Value& a, const Value& b) {
    auto text = [&](const Value& v) {
        auto s = symIntOf(m_interp, v);
        if (s && s->trace == m_serial)
            return m_graph.nodes[static_cast<size_t>(s->node)].meta.sizes.at(0).str();
        return s ? m_interp.repr(s->value) : m_interp.repr(v);
    };
    const std::string x = text(a), y = text(b);
    switch (code) {
    case lang::BinaryOperator::Add:
        return x + " + " + y;
    case lang::BinaryOperator::Sub:
        return x + " - " + y;
    case lang::BinaryOperator::Mul:
        return x + "*" + y;
    case lang::BinaryOperator::FloorDiv:
        return "((" + x + ")//" + y + ")";
    default:
        return "Mod(" + x + ", " + y + ")";
    }
}

int32_t Tracer::recordSymArithmetic(lang::BinaryOperator code, const std::string& op,
                                    const Value& a, const Value& b, const Value& result) {
    auto sa = symIntOf(m_interp, a), sb = symIntOf(m_interp, b);
    const bool ownA = sa && sa->trace == m_serial, ownB = sb && sb->trace == m_serial;
    if (!ownA && !ownB) return -1;
    graph::Node n;
    n.op = graph::NodeOp::CallFunction;
    n.operatorKind = graph::OperatorKind::Binary;
    n.operatorCode = static_cast<uint8_t>(code);
    n.target = "operator." + op;
    n.name = op;
    n.args = {argOf(a), argOf(b)};
    n.meta.kind = graph::ValueMeta::Kind::SymInt;
    n.meta.sizes = {graph::Dim{result.isInt() ? result.asInt() : 0, symbolicText(code, a, b)}};
    const int32_t node = addNode(std::move(n));
    auto exprOf = [&](const std::optional<SymIntView>& s, const Value& v) -> SymExprPtr {
        if (s && s->trace == m_serial) {
            auto e = m_symExprs.find(s->node);
            return e == m_symExprs.end() ? nullptr : e->second;
        }
        return v.isInt() ? SymExpr::constant(v.asInt()) : nullptr;
    };
    if (SymExprPtr ea = exprOf(sa, a), eb = exprOf(sb, b); ea && eb)
        m_symExprs[node] = SymExpr::binary(code, ea, eb);
    std::vector<std::string>& roots = m_symRoots[node];
    for (const auto& s : {sa, sb})
        if (s && s->trace == m_serial) {
            const auto& more = m_symRoots[s->node];
            roots.insert(roots.end(), more.begin(), more.end());
        }
    return node;
}

void Tracer::specializeSym(int32_t node) {
    useSymInt(node);
    auto roots = m_symRoots.find(node);
    if (roots == m_symRoots.end()) return;
    for (const std::string& name : roots->second)
        for (SymbolInfo& s : m_symbols)
            if (s.name == name) s.specialized = true;
}

const SourcePtr* Tracer::placeholderSource(int32_t node) const {
    for (const PlaceholderRecord& p : m_placeholders)
        if (p.node == node) return &p.source;
    return nullptr;
}

bool Tracer::isUnbacked(int32_t node) const {
    auto roots = m_symRoots.find(node);
    return roots != m_symRoots.end() &&
           std::any_of(roots->second.begin(), roots->second.end(),
                       [&](const std::string& r) { return m_unbacked.count(r) > 0; });
}

bool Tracer::guardSymCompare(lang::CompareOperator op, const Value& a, const Value& b,
                             bool result) {
    auto s = ownSymInt(a);
    if (!s || !b.isInt()) return false;
    auto expr = m_symExprs.find(s->node);
    if (expr == m_symExprs.end()) return false;
    addGuard(Guard::symCompare(expr->second, op, b.asInt(), result));
    return true;
}

void Tracer::needSymValue(int32_t node, const std::string& why) {
    auto roots = m_symRoots.find(node);
    const bool unbacked =
        roots != m_symRoots.end() &&
        std::any_of(roots->second.begin(), roots->second.end(),
                    [&](const std::string& r) { return m_unbacked.count(r) > 0; });
    if (!unbacked) {
        specializeSym(node);
        return;
    }
    // A value computed from tensor data (item() with capture_scalar_outputs): Python needs it,
    // so the graph must end here, as Dynamo's guard on a data-dependent symbol does.
    const std::string expr = m_graph.nodes[static_cast<size_t>(node)].meta.sizes.at(0).str();
    graphBreak(BreakKind::ScalarConvert,
               "could not guard on data-dependent expression " + expr + " (" + why + ")");
}

Value Tracer::recordItem(const lang::Value& tensor, const Value& value) {
    const std::string symbol = "u" + std::to_string(m_unbacked.size());
    m_unbacked.insert(symbol);
    graph::Node n;
    n.op = graph::NodeOp::CallMethod;
    n.target = "item";
    n.name = "item";
    n.args = {argOf(tensor)};
    n.meta.kind = graph::ValueMeta::Kind::SymInt;
    n.meta.sizes = {graph::Dim{value.isInt() ? value.asInt() : 0, symbol}};
    const int32_t node = addNode(std::move(n));
    m_symRoots[node] = {symbol};
    return makeSymNumber(m_interp, m_serial, node, value);
}

Value Tracer::runOnValues(lang::NativeFunctionObject& fn, const CallArgs& args) {
    auto holds = [&](const Value& v) { return holdsSymInt(v); };
    if (std::none_of(args.positional.begin(), args.positional.end(), holds) &&
        std::none_of(args.keywordValues.begin(), args.keywordValues.end(), holds))
        return fn.fn(m_interp, args, fn.data);
    // The op computes on the SymInts' values; the graph node refers to their nodes, so a
    // list argument (F.pad(x, [0, 0, d // 2, d - d // 2])) is copied, not changed in place as
    // concreteValue changes a frame's own list: the node is recorded from it afterwards.
    auto values = [&](const Value& v) {
        if (!v.is(ObjectKind::List) || !holdsSymInt(v)) return concreteValue(m_interp, v);
        std::vector<Value> items;
        for (const Value& item : v.as<lang::ListObject>()->items)
            items.push_back(concreteValue(m_interp, item));
        return Value(makeRef<lang::ListObject>(std::move(items)));
    };
    std::vector<Value> positional, keywords;
    for (const Value& v : args.positional)
        positional.push_back(values(v));
    for (const Value& v : args.keywordValues)
        keywords.push_back(values(v));
    return fn.fn(m_interp, CallArgs{positional, args.keywordNames, keywords}, fn.data);
}

Value Tracer::operateOnValues(lang::OperatorCall call, uint8_t code, std::span<const Value> args) {
    std::vector<Value> values;
    for (const Value& a : args)
        values.push_back(concreteValue(m_interp, a));
    switch (call) {
    case lang::OperatorCall::Binary:
        return m_interp.binaryOp(static_cast<lang::BinaryOperator>(code), values[0], values[1]);
    case lang::OperatorCall::InplaceBinary:
        return m_interp.inplaceOp(static_cast<lang::BinaryOperator>(code), values[0], values[1]);
    case lang::OperatorCall::Compare:
        return m_interp.compare(static_cast<lang::CompareOperator>(code), values[0], values[1]);
    case lang::OperatorCall::Unary:
        return m_interp.unaryOp(static_cast<lang::UnaryOperator>(code), values[0]);
    case lang::OperatorCall::GetItem:
        return m_interp.getItem(values[0], values[1]);
    case lang::OperatorCall::SetItem:
        break;
    }
    return Value();
}

void Tracer::concretizeArgs(const CallArgs& args) {
    // The argument array is the caller's; the call that receives it runs outside the graph.
    for (const Value& v : args.positional)
        const_cast<Value&>(v) = concreteValue(m_interp, v);
    for (const Value& v : args.keywordValues)
        const_cast<Value&>(v) = concreteValue(m_interp, v);
}

bool Tracer::holdsSymInt(const Value& v) const {
    if (auto s = symIntOf(m_interp, v)) return s->trace == m_serial;
    if (v.is(ObjectKind::Slice)) {
        const auto* slice = v.as<lang::SliceObject>();
        return holdsSymInt(slice->start) || holdsSymInt(slice->stop) || holdsSymInt(slice->step);
    }
    if (!v.is(ObjectKind::List) && !v.is(ObjectKind::Tuple)) return false;
    const auto& items = sequenceItems(v);
    return std::any_of(items.begin(), items.end(), [&](const Value& i) { return holdsSymInt(i); });
}

void Tracer::specializeEmbedded(const Value& v, int depth) {
    if (depth > 4 || !v.isObject()) return;
    if (auto s = symIntOf(m_interp, v)) {
        if (s->trace == m_serial) specializeSym(s->node);
        return;
    }
    if (v.is(ObjectKind::Slice)) {
        const auto* slice = v.as<lang::SliceObject>();
        for (const Value& part : {slice->start, slice->stop, slice->step})
            specializeEmbedded(part, depth + 1);
    } else if (v.is(ObjectKind::List) || v.is(ObjectKind::Tuple)) {
        for (const Value& item : sequenceItems(v))
            specializeEmbedded(item, depth + 1);
    }
}

} // namespace kiln::capture
