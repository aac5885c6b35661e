// SPDX-License-Identifier: MIT
#include "capture/guards.h"

#include "lang/types.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>

namespace kiln::capture {

using lang::Value;

namespace {

std::string intList(const std::vector<int64_t>& values) {
    std::string out = "[";
    for (size_t i = 0; i < values.size(); ++i)
        out += (i ? ", " : "") + (values[i] < 0 ? std::string("None") : std::to_string(values[i]));
    return out + "]";
}

std::string quoted(const Source& s) {
    return "'" + s.str() + "'";
}

} // namespace

Guard Guard::tensorMatch(SourcePtr source, const tensor::Tensor& t,
                         const std::vector<bool>& dynamicDims) {
    Guard g;
    g.m_kind = Kind::TensorMatch;
    g.m_source = std::move(source);
    g.m_parameter = t.isParameter();
    g.m_dtype = t.dtype();
    g.m_requiresGrad = t.requiresGrad();
    const size_t rank = static_cast<size_t>(t.dim());
    for (size_t d = 0; d < rank; ++d) {
        bool dynamic = d < dynamicDims.size() && dynamicDims[d];
        g.m_sizes.push_back(dynamic ? -1 : t.sizes()[d]);
    }
    // The layout's order, innermost first (smallest stride; ties: the later dim, as in a
    // contiguous tensor). A stride is a number while every dim inside it has a static size.
    std::vector<int32_t> order(rank);
    for (size_t d = 0; d < rank; ++d)
        order[d] = static_cast<int32_t>(d);
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        int64_t sa = t.strides()[static_cast<size_t>(a)], sb = t.strides()[static_cast<size_t>(b)];
        return sa != sb ? sa < sb : a > b;
    });
    g.m_strides.assign(rank, kAnyStride);
    g.m_denseOn.assign(rank, -1);
    bool innerStatic = true;
    for (size_t p = 0; p < rank; ++p) {
        const size_t d = static_cast<size_t>(order[p]);
        const int64_t stride = t.strides()[d];
        if (innerStatic) {
            g.m_strides[d] = stride;
        } else {
            const size_t inner = static_cast<size_t>(order[p - 1]);
            if (stride == t.strides()[inner] * t.sizes()[inner]) {
                g.m_strides[d] = kDenseStride;
                g.m_denseOn[d] = order[p - 1];
            }
        }
        innerStatic = innerStatic && g.m_sizes[d] >= 0;
    }
    return g;
}

std::optional<int64_t> Guard::expectedStride(const tensor::TensorImpl* t, size_t d) const {
    if (m_strides[d] >= 0) return m_strides[d];
    if (m_strides[d] != kDenseStride) return std::nullopt;
    const size_t inner = static_cast<size_t>(m_denseOn[d]);
    return t->strides[inner] * t->sizes[inner];
}

Guard Guard::equalsMatch(SourcePtr source, Value expected) {
    Guard g;
    g.m_kind = Kind::EqualsMatch;
    g.m_source = std::move(source);
    g.m_expected = std::move(expected);
    return g;
}

Guard Guard::idMatch(SourcePtr source, Value object) {
    Guard g;
    g.m_kind = Kind::IdMatch;
    g.m_source = std::move(source);
    g.m_expected = std::move(object);
    return g;
}

Guard Guard::typeMatch(SourcePtr source, lang::TypeObject* type) {
    Guard g;
    g.m_kind = Kind::TypeMatch;
    g.m_source = std::move(source);
    g.m_type = type;
    return g;
}

Guard Guard::lengthCheck(SourcePtr source, int64_t length) {
    Guard g;
    g.m_kind = Kind::LengthCheck;
    g.m_source = std::move(source);
    g.m_length = length;
    return g;
}

Guard Guard::sameObject(SourcePtr source, SourcePtr other) {
    Guard g;
    g.m_kind = Kind::SameObject;
    g.m_source = std::move(source);
    g.m_other = std::move(other);
    return g;
}

Guard Guard::dimEquals(SourcePtr source, int64_t dim, SourcePtr other, int64_t otherDim,
                       std::string symbol) {
    Guard g;
    g.m_kind = Kind::DimEquals;
    g.m_source = std::move(source);
    g.m_length = dim;
    g.m_other = std::move(other);
    g.m_minimum = otherDim;
    g.m_symbol = std::move(symbol);
    return g;
}

Guard Guard::globalState(bool gradMode) {
    Guard g;
    g.m_kind = Kind::GlobalState;
    g.m_source = Source::global(lang::Symbol::intern("___global_state"));
    g.m_expected = Value::fromBool(gradMode);
    return g;
}

namespace {
thread_local int64_t t_currentBackendId = 0;
} // namespace

int64_t currentBackendId() {
    return t_currentBackendId;
}

void setCurrentBackendId(int64_t id) {
    t_currentBackendId = id;
}

int64_t backendIdOf(const std::string& key, const lang::Value& keepAlive) {
    // The address of the interned key, as Python's id() is an address: stable for the process.
    // Never destroyed: the callables must not be released after the interpreter at exit.
    static std::mutex mutex;
    static auto* keys = new std::map<std::string, lang::Value>();
    std::lock_guard lock(mutex);
    auto it = keys->emplace(key, keepAlive).first;
    return static_cast<int64_t>(reinterpret_cast<uintptr_t>(&it->first));
}

Guard Guard::backendMatch(int64_t backendId) {
    Guard g;
    g.m_kind = Kind::BackendMatch;
    g.m_source = Source::global(lang::Symbol::intern("___current_backend"));
    g.m_length = backendId;
    return g;
}

Guard Guard::symCompare(SymExprPtr expr, lang::CompareOperator op, int64_t rhs, bool result) {
    Guard g;
    g.m_kind = Kind::SymCompare;
    g.m_source = expr->firstSource();
    g.m_expr = std::move(expr);
    g.m_compare = op;
    g.m_length = rhs;
    g.m_expected = Value::fromBool(result);
    return g;
}

namespace {

/// `v.size()[dim]`, or nullopt when v is not a tensor of that many dims.
std::optional<int64_t> sizeAt(const Value& v, int64_t dim) {
    if (!v.isTensor() || static_cast<int64_t>(v.tensorImpl()->sizes.size()) <= dim) return {};
    return v.tensorImpl()->sizes[static_cast<size_t>(dim)];
}

bool compareInts(lang::CompareOperator op, int64_t a, int64_t b) {
    switch (op) {
    case lang::CompareOperator::Eq:
        return a == b;
    case lang::CompareOperator::NotEq:
        return a != b;
    case lang::CompareOperator::Lt:
        return a < b;
    case lang::CompareOperator::LtE:
        return a <= b;
    case lang::CompareOperator::Gt:
        return a > b;
    default:
        return a >= b;
    }
}

} // namespace

bool Guard::passes(lang::Interpreter& interp, const std::vector<Value>& slots,
                   lang::ModuleObject& globals) const {
    if (m_kind == Kind::SymCompare) {
        std::optional<int64_t> v = m_expr->evaluate(interp, slots, globals);
        return v && compareInts(m_compare, *v, m_length) == m_expected.asBool();
    }
    if (m_kind == Kind::GlobalState) return tensor::gradModeEnabled() == m_expected.asBool();
    if (m_kind == Kind::BackendMatch) return currentBackendId() == m_length;
    Value v = m_source->fetch(interp, slots, globals);
    if (m_kind == Kind::SameObject)
        return !v.isEmpty() && v.identical(m_other->fetch(interp, slots, globals));
    if (m_kind == Kind::DimEquals) {
        std::optional<int64_t> a = sizeAt(v, m_length);
        std::optional<int64_t> b = sizeAt(m_other->fetch(interp, slots, globals), m_minimum);
        return a && b && *a == *b;
    }
    return check(interp, v);
}

Guard Guard::dimAtLeast(SourcePtr source, int64_t dim, int64_t minimum, std::string symbol) {
    Guard g;
    g.m_kind = Kind::DimAtLeast;
    g.m_source = std::move(source);
    g.m_length = dim;
    g.m_minimum = minimum;
    g.m_symbol = std::move(symbol);
    return g;
}

bool Guard::checkTensor(const Value& v) const {
    if (!v.isTensor()) return false;
    tensor::TensorImpl* t = v.tensorImpl();
    if (t->isParameter != m_parameter || t->dtype != m_dtype || t->requiresGrad != m_requiresGrad)
        return false;
    if (t->sizes.size() != m_sizes.size()) return false;
    for (size_t d = 0; d < m_sizes.size(); ++d)
        if (m_sizes[d] >= 0 && t->sizes[d] != m_sizes[d]) return false;
    for (size_t d = 0; d < m_sizes.size(); ++d) {
        if (t->sizes[d] == 1) continue; // a size-1 dim's stride is never used
        std::optional<int64_t> stride = expectedStride(t, d);
        if (stride && t->strides[d] != *stride) return false;
    }
    return true;
}

bool Guard::check(lang::Interpreter& interp, const Value& v) const {
    switch (m_kind) {
    case Kind::TensorMatch:
        return checkTensor(v);
    case Kind::EqualsMatch:
        if (v.tag() != m_expected.tag() && !(v.isNumber() && m_expected.isNumber())) return false;
        if (v.isBool() != m_expected.isBool() || v.isFloat() != m_expected.isFloat())
            return false; // 1 == True == 1.0 in Python, but they trace differently
        // Dynamo's EQUALS_MATCH checks the type first: a str subclass is not its characters.
        if (v.isObject() && interp.typeOf(v) != interp.typeOf(m_expected)) return false;
        return v.identical(m_expected) || interp.equals(v, m_expected);
    case Kind::IdMatch:
        return v.identical(m_expected);
    case Kind::TypeMatch:
        return !v.isEmpty() && interp.typeOf(v) == m_type;
    case Kind::LengthCheck:
        if (v.is(lang::ObjectKind::List))
            return static_cast<int64_t>(v.as<lang::ListObject>()->items.size()) == m_length;
        if (v.is(lang::ObjectKind::Tuple))
            return static_cast<int64_t>(v.as<lang::TupleObject>()->items.size()) == m_length;
        if (v.is(lang::ObjectKind::Dict))
            return static_cast<int64_t>(v.as<lang::DictObject>()->size()) == m_length;
        return false;
    case Kind::DimAtLeast:
        if (m_length < 0) return v.isInt() && v.asInt() >= m_minimum; // a dynamic int input
        return v.isTensor() && static_cast<int64_t>(v.tensorImpl()->sizes.size()) > m_length &&
               v.tensorImpl()->sizes[static_cast<size_t>(m_length)] >= m_minimum;
    case Kind::SameObject:
    case Kind::GlobalState:
    case Kind::SymCompare:
    case Kind::DimEquals:
    case Kind::BackendMatch:
        return true; // not a check of one value: see passes()
    }
    return false;
}

std::string Guard::tensorFailure(const Value& v) const {
    std::string name = "tensor " + quoted(*m_source);
    if (!v.isTensor()) return name + " is not a Tensor";
    tensor::TensorImpl* t = v.tensorImpl();
    if (t->isParameter != m_parameter)
        return name + " type mismatch. expected " + (m_parameter ? "Parameter" : "Tensor") +
               ", actual " + (t->isParameter ? "Parameter" : "Tensor");
    if (t->dtype != m_dtype)
        return name + " dtype mismatch. expected " + std::string(tensor::dtypeLegacyName(m_dtype)) +
               ", actual " + std::string(tensor::dtypeLegacyName(t->dtype));
    if (t->requiresGrad != m_requiresGrad)
        return name + " requires_grad mismatch. expected requires_grad=" +
               std::to_string(int(m_requiresGrad));
    if (t->sizes.size() != m_sizes.size())
        return name + " rank mismatch. expected " + std::to_string(m_sizes.size()) + ", actual " +
               std::to_string(t->sizes.size());
    for (size_t d = 0; d < m_sizes.size(); ++d)
        if (m_sizes[d] >= 0 && t->sizes[d] != m_sizes[d])
            return name + " size mismatch at index " + std::to_string(d) + ". expected " +
                   std::to_string(m_sizes[d]) + ", actual " + std::to_string(t->sizes[d]);
    for (size_t d = 0; d < m_strides.size(); ++d) {
        std::optional<int64_t> stride = expectedStride(t, d);
        if (stride && t->strides[d] != *stride && t->sizes[d] != 1)
            return name + " stride mismatch at index " + std::to_string(d) + ". expected " +
                   std::to_string(*stride) + ", actual " + std::to_string(t->strides[d]);
    }
    return name + " matches";
}

std::string Guard::expression(lang::Interpreter& interp) const {
    lang::Interpreter::FrameHookPause pause(interp);
    const std::string s = m_source->str();
    switch (m_kind) {
    case Kind::TensorMatch:
        return "check_tensor(" + s + ", " + (m_parameter ? "Parameter" : "Tensor") + ", " +
               "torch." + std::string(tensor::dtypeName(m_dtype)) + ", device=None, " +
               "requires_grad=" + (m_requiresGrad ? "True" : "False") +
               ", size=" + intList(m_sizes) + ", stride=" + intList(m_strides) + ")";
    case Kind::EqualsMatch:
        return s + " == " + interp.repr(m_expected);
    case Kind::IdMatch:
        if (m_expected.isBool() || m_expected.isNone()) return s + " == " + interp.repr(m_expected);
        return "___check_obj_id(" + s + ", " + interp.typeName(m_expected) + ")";
    case Kind::TypeMatch:
        return "___check_type_id(" + s + ", " + m_type->name + ")";
    case Kind::LengthCheck:
        return "len(" + s + ") == " + std::to_string(m_length);
    case Kind::DimAtLeast:
        if (m_length < 0) return std::to_string(m_minimum) + " <= " + s;
        return std::to_string(m_minimum) + " <= " + s + ".size()[" + std::to_string(m_length) + "]";
    case Kind::SameObject:
        return s + " is " + m_other->str();
    case Kind::DimEquals:
        return s + ".size()[" + std::to_string(m_length) + "] == " + m_other->str() + ".size()[" +
               std::to_string(m_minimum) + "]";
    case Kind::GlobalState:
        return "___check_global_state()";
    case Kind::BackendMatch:
        return "___check_current_backend(" + std::to_string(m_length) + ")";
    case Kind::SymCompare: {
        std::string test = m_expr->str() + " " + lang::compareOperatorSymbol(m_compare) + " " +
                           std::to_string(m_length);
        return m_expected.asBool() ? test : "not (" + test + ")";
    }
    }
    return s;
}

std::string Guard::failure(lang::Interpreter& interp, const Value& v) const {
    if (m_kind == Kind::TensorMatch) return tensorFailure(v);
    // PyTorch prints the failing check followed by the user code that made the guard.
    std::string text = expression(interp);
    if (!origin.code.empty()) {
        if (text.size() < 60) text.append(60 - text.size(), ' ');
        std::string file = origin.file.substr(origin.file.rfind('/') + 1);
        text += "  # " + origin.code + "  # " + file + ":" + std::to_string(origin.line) + " in " +
                origin.function;
    }
    return text;
}

const char* Guard::kindName() const {
    switch (m_kind) {
    case Kind::TensorMatch:
        return "TENSOR_MATCH";
    case Kind::EqualsMatch:
        return "EQUALS_MATCH";
    case Kind::IdMatch:
        return "ID_MATCH";
    case Kind::TypeMatch:
        return "TYPE_MATCH";
    case Kind::LengthCheck:
        return "LENGTH_CHECK";
    case Kind::DimAtLeast:
        return "SHAPE_ENV";
    case Kind::SameObject:
        return "DUPLICATE_INPUT";
    case Kind::GlobalState:
        return "GLOBAL_STATE";
    case Kind::BackendMatch:
        return "BACKEND_MATCH";
    case Kind::SymCompare:
    case Kind::DimEquals:
        return "SHAPE_ENV";
    }
    return "GUARD";
}

std::string Guard::expectedText(lang::Interpreter& interp) const {
    lang::Interpreter::FrameHookPause pause(interp);
    switch (m_kind) {
    case Kind::TensorMatch:
        return "torch." + std::string(tensor::dtypeName(m_dtype)) + " " + intList(m_sizes);
    case Kind::EqualsMatch:
    case Kind::IdMatch:
        return interp.repr(m_expected);
    case Kind::TypeMatch:
        return m_type->name;
    case Kind::LengthCheck:
        return std::to_string(m_length);
    case Kind::DimAtLeast:
        return ">= " + std::to_string(m_minimum);
    case Kind::SameObject:
        return "the object at " + m_other->str();
    case Kind::DimEquals:
        return "== " + m_other->str() + ".size()[" + std::to_string(m_minimum) + "]";
    case Kind::GlobalState:
        return std::string("grad_mode=") + (m_expected.asBool() ? "True" : "False");
    case Kind::SymCompare:
        return m_expected.asBool() ? "True" : "False";
    case Kind::BackendMatch:
        return "backend " + std::to_string(m_length);
    }
    return "";
}

std::string Guard::actualText(lang::Interpreter& interp, const Value& v) const {
    lang::Interpreter::FrameHookPause pause(interp);
    // The global state has no source to fetch: it is read here.
    if (m_kind == Kind::GlobalState)
        return std::string("grad_mode=") + (tensor::gradModeEnabled() ? "True" : "False");
    if (m_kind == Kind::BackendMatch) return "backend " + std::to_string(currentBackendId());
    if (v.isEmpty()) return "<missing>";
    switch (m_kind) {
    case Kind::TensorMatch: {
        if (!v.isTensor()) return interp.typeName(v);
        const auto& sizes = v.tensorImpl()->sizes;
        return "torch." + std::string(tensor::dtypeName(v.tensorImpl()->dtype)) + " " +
               intList(std::vector<int64_t>(sizes.begin(), sizes.end()));
    }
    case Kind::LengthCheck:
        return std::to_string(interp.len(v));
    case Kind::SameObject:
        return "a different object";
    case Kind::GlobalState:
        return std::string("grad_mode=") + (tensor::gradModeEnabled() ? "True" : "False");
    case Kind::SymCompare:
        return m_expected.asBool() ? "False" : "True";
    case Kind::DimEquals: {
        std::optional<int64_t> a = sizeAt(v, m_length);
        return a ? std::to_string(*a) : "?";
    }
    case Kind::DimAtLeast:
        if (m_length < 0) return interp.repr(v);
        return v.isTensor() && static_cast<int64_t>(v.tensorImpl()->sizes.size()) > m_length
                   ? std::to_string(v.tensorImpl()->sizes[static_cast<size_t>(m_length)])
                   : "?";
    default:
        return interp.repr(v);
    }
}

int32_t GuardSet::firstFailure(lang::Interpreter& interp, const std::vector<Value>& slots,
                               lang::ModuleObject& globals) const {
    lang::Interpreter::FrameHookPause pause(interp); // a guard's source may run a property
    for (size_t i = 0; i < guards.size(); ++i) {
        const Guard& g = guards[i];
        if (!g.passes(interp, slots, globals)) return static_cast<int32_t>(i);
    }
    return -1;
}

std::vector<int32_t> GuardSet::allFailures(lang::Interpreter& interp,
                                           const std::vector<Value>& slots,
                                           lang::ModuleObject& globals) const {
    lang::Interpreter::FrameHookPause pause(interp);
    std::vector<int32_t> out;
    for (size_t i = 0; i < guards.size(); ++i) {
        const Guard& g = guards[i];
        if (!g.passes(interp, slots, globals)) out.push_back(static_cast<int32_t>(i));
    }
    return out;
}

} // namespace kiln::capture
