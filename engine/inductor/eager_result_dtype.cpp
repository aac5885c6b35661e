// SPDX-License-Identifier: MIT
#include "inductor/eager_result_dtype.h"

#include "lang/ast.h"
#include "lang/native_types.h"
#include "tensor/convert.h"
#include "tensor/ops.h"

#include <set>
#include <string_view>

namespace kiln::inductor {

namespace {

using lang::DeviceOpCall;
using lang::Value;
using tensor::DType;

bool isOneOf(std::string_view name, const std::set<std::string_view>& names) {
    return names.count(name) > 0;
}

/// Ops whose result is bool whatever their operands.
bool returnsBool(std::string_view name) {
    static const std::set<std::string_view> names = {
        "eq",       "ne",          "lt",         "le",          "gt",
        "ge",       "isnan",       "isinf",      "isfinite",    "isposinf",
        "isneginf", "logical_and", "logical_or", "logical_xor", "logical_not",
        "signbit",  "isclose",     "any",        "all",         "equal"};
    return isOneOf(name, names);
}

/// Ops whose result is an index (int64).
bool returnsIndex(std::string_view name) {
    static const std::set<std::string_view> names = {"argmax",  "argmin",    "argsort",
                                                     "nonzero", "bucketize", "searchsorted"};
    return isOneOf(name, names);
}

/// Ops that compute in floating point: integral operands give the default float.
bool floatingOnly(std::string_view name) {
    static const std::set<std::string_view> names = {"sin",
                                                     "cos",
                                                     "tan",
                                                     "asin",
                                                     "acos",
                                                     "atan",
                                                     "sinh",
                                                     "cosh",
                                                     "tanh",
                                                     "asinh",
                                                     "acosh",
                                                     "atanh",
                                                     "exp",
                                                     "exp2",
                                                     "expm1",
                                                     "log",
                                                     "log2",
                                                     "log10",
                                                     "log1p",
                                                     "sqrt",
                                                     "rsqrt",
                                                     "sigmoid",
                                                     "erf",
                                                     "erfc",
                                                     "erfinv",
                                                     "gelu",
                                                     "silu",
                                                     "mish",
                                                     "softmax",
                                                     "log_softmax",
                                                     "layer_norm",
                                                     "group_norm",
                                                     "mean",
                                                     "var",
                                                     "std",
                                                     "norm",
                                                     "div",
                                                     "true_divide",
                                                     "reciprocal",
                                                     "softplus",
                                                     "elu",
                                                     "selu",
                                                     "celu",
                                                     "lerp",
                                                     "atan2",
                                                     "logsumexp",
                                                     "rms_norm",
                                                     "linspace",
                                                     "dropout",
                                                     "hardsigmoid",
                                                     "hardswish",
                                                     "logsigmoid",
                                                     "normalize",
                                                     "cosine_similarity",
                                                     "scaled_dot_product_attention"};
    return isOneOf(name, names);
}

/// Reductions that accumulate integers (and bools) in int64.
bool sumsIntegers(std::string_view name) {
    return name == "sum" || name == "prod" || name == "cumsum" || name == "cumprod" ||
           name == "nansum";
}

/// Casts by name: x.float(), x.half(), ...
std::optional<DType> castTarget(std::string_view name) {
    if (name == "float") return DType::Float32;
    if (name == "double") return DType::Float64;
    if (name == "half") return DType::Float16;
    if (name == "bfloat16") return DType::BFloat16;
    if (name == "long") return DType::Int64;
    if (name == "int") return DType::Int32;
    if (name == "bool") return DType::Bool;
    if (name == "byte") return DType::UInt8;
    if (name == "char") return DType::Int8;
    if (name == "short") return DType::Int16;
    return std::nullopt;
}

/// An explicit dtype: the `dtype=` keyword, or a dtype among the positionals (x.to(dtype)).
std::optional<DType> explicitDtype(const DeviceOpCall& call) {
    for (size_t i = 0; i < call.args.keywordNames.size(); ++i)
        if (call.args.keywordNames[i].str() == "dtype")
            if (auto d = lang::dtypeOfValue(call.args.keywordValues[i])) return d;
    for (const Value& v : call.args.positional)
        if (auto d = lang::dtypeOfValue(v)) return d;
    return std::nullopt;
}

/// torch.result_type over the tensors and Python numbers among the arguments (one level into
/// lists, as cat's operands).
DType promotedOperands(const DeviceOpCall& call) {
    std::vector<tensor::Tensor> operands;
    auto add = [&](const Value& v) {
        if (v.isTensor())
            operands.push_back(v.asTensor());
        else if (v.isBool())
            operands.push_back(tensor::wrapNumber(tensor::Scalar(v.asBool())));
        else if (v.isIntLike())
            operands.push_back(tensor::wrapNumber(tensor::Scalar(v.asInt())));
        else if (v.isFloat())
            operands.push_back(tensor::wrapNumber(tensor::Scalar(v.asFloat())));
    };
    bool numbersCount =
        call.form == DeviceOpCall::Form::Binary || call.form == DeviceOpCall::Form::Compare;
    for (const Value& v : call.args.positional) {
        if (v.is(lang::ObjectKind::List) || v.is(lang::ObjectKind::Tuple)) {
            const auto& items = v.is(lang::ObjectKind::List) ? v.as<lang::ListObject>()->items
                                                             : v.as<lang::TupleObject>()->items;
            for (const Value& item : items)
                if (item.isTensor()) operands.push_back(item.asTensor());
        } else if (v.isTensor() || numbersCount) {
            add(v);
        }
    }
    if (operands.empty()) return DType::Float32;
    // Binary torch functions (torch.add(x, 2.5), torch.mul) promote with their number too.
    if (!numbersCount && call.args.positional.size() >= 2 && !call.args.positional[1].isTensor())
        add(call.args.positional[1]);
    DType result = operands.size() == 1 ? operands[0].dtype()
                                        : tensor::resultType({&operands[0], &operands[1]});
    for (size_t i = 2; i < operands.size(); ++i)
        result = tensor::promoteTypes(result, operands[i].dtype());
    return result;
}

} // namespace

DType eagerResultDtype(lang::Interpreter&, const DeviceOpCall& call) {
    using Form = DeviceOpCall::Form;
    std::string_view name = call.name;
    if (call.form == Form::Compare) return DType::Bool;
    if (call.form == Form::Binary &&
        static_cast<lang::BinaryOperator>(call.operatorCode) == lang::BinaryOperator::Div)
        name = "div";
    if (auto cast = castTarget(name); cast && call.form == Form::Method) return *cast;
    // any/all of uint8 are uint8 (tensor::any)
    if ((name == "any" || name == "all") && promotedOperands(call) == DType::UInt8)
        return DType::UInt8;
    if (returnsBool(name)) return DType::Bool;
    if (returnsIndex(name)) return DType::Int64;
    if (auto d = explicitDtype(call)) return *d;
    DType t = promotedOperands(call);
    if (floatingOnly(name) && !tensor::isFloating(t)) return DType::Float32;
    if (sumsIntegers(name) && !tensor::isFloating(t)) return DType::Int64;
    return t;
}

} // namespace kiln::inductor
