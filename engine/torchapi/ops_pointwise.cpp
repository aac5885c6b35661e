// SPDX-License-Identifier: MIT
// Pointwise math as torch functions and Tensor methods: the unary functions (abs, exp, sin,
// sigmoid, ...), the binary arithmetic, comparison, logical and bitwise ops, and the in-place
// form of each (x.exp_(), x.add_(y, alpha=2)). Each family is a table of entries sharing one
// NativeFn; the entry arrives as the `data` pointer.
#include "tensor/autograd.h"
#include "tensor/error.h"
#include "tensor/grad_node.h"
#include "torchapi/bindings.h"

#include <cmath>
#include <deque>

namespace kiln::torchapi {

using namespace kiln::lang;
using tensor::BinaryOp;
using tensor::UnaryOp;

namespace {

struct UnaryEntry {
    const char* name;
    UnaryOp op;
    bool inPlace;
    Signature sig;
};

Value unaryFn(Interpreter& interp, const CallArgs& args, void* data) {
    const UnaryEntry& e = *static_cast<const UnaryEntry*>(data);
    BoundArgs a = e.sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    if (e.inPlace) {
        tensor::unaryInPlace(e.op, x);
        return a[0];
    }
    Tensor r = tensor::unary(e.op, x);
    return resultOrOut(a, 1, r);
}

/// round(decimals=d): PyTorch scales by 10^|d|, rounds half to even, and scales back; one
/// autograd node (RoundBackward1) for the whole computation.
Tensor roundDecimals(const Tensor& x, int64_t decimals) {
    if (!tensor::isFloating(x.dtype()))
        tensor::fail(tensor::ErrorKind::NotImplementedError,
                     "\"round_cpu\" not implemented for '" +
                         std::string(tensor::dtypeLegacyName(x.dtype())) + "'");
    Tensor r;
    {
        NoGradScope noGrad;
        // 16-bit floats are scaled and rounded in float32 and rounded back once at the end.
        bool narrow = tensor::itemSize(x.dtype()) == 2;
        Tensor wide = narrow ? tensor::toDType(x, tensor::DType::Float32) : x;
        Tensor scale = tensor::wrapNumber(std::pow(10.0, static_cast<double>(std::abs(decimals))));
        bool down = decimals < 0;
        Tensor scaled = tensor::binary(down ? BinaryOp::Div : BinaryOp::Mul, wide, scale);
        r = tensor::binary(down ? BinaryOp::Mul : BinaryOp::Div,
                           tensor::unary(UnaryOp::Round, scaled), scale);
        if (narrow) r = tensor::toDType(r, x.dtype());
    }
    tensor::recordGradFn(r, "RoundBackward1", {&x});
    if (r.gradNode()) // zero, as round's
        tensor::attachDerivative(r, tensor::unaryBackward(UnaryOp::Round, "RoundBackward1", x, r));
    return r;
}

template <bool InPlace>
Value roundFn(Interpreter& interp, const CallArgs& args, void*) {
    static const Signature sig(InPlace ? "round_(input, *, decimals=0)"
                                       : "round(input, *, decimals=0, out=None)");
    BoundArgs a = sig.bind(interp, args);
    Tensor x = a.toTensor(0);
    int64_t decimals = a.toInt(1);
    if (InPlace) {
        if (decimals == 0)
            tensor::unaryInPlace(UnaryOp::Round, x);
        else
            assignInPlace(x, roundDecimals(x, decimals));
        return a[0];
    }
    Tensor r = decimals == 0 ? tensor::unary(UnaryOp::Round, x) : roundDecimals(x, decimals);
    return resultOrOut(a, 2, r);
}

enum class Extra : uint8_t { None, Alpha, RoundingMode };

struct BinaryEntry {
    const char* name;
    BinaryOp op;
    bool numberOther; ///< `other` may be a Python number (the Scalar overloads)
    bool numberSelf;  ///< `input` may be a Python number (torch.pow(2, x), remainder)
    Extra extra;
    bool inPlace;
    Signature sig;
};

tensor::Scalar negated(tensor::Scalar s) {
    if (s.isFloat()) return tensor::Scalar(-s.toDouble());
    if (s.isBool()) return s;
    return tensor::Scalar(-s.toInt());
}

BinaryOp roundingOp(Interpreter& interp, const Value& mode) {
    if (mode.isNone()) return BinaryOp::Div;
    std::string m = mode.is(ObjectKind::Str) ? mode.as<StrObject>()->str() : interp.repr(mode);
    if (m == "trunc") return BinaryOp::TruncDiv;
    if (m == "floor") return BinaryOp::FloorDiv;
    interp.raise(builtinTypes().runtimeError.get(),
                 "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" +
                     m + "'");
}

/// add/sub with alpha != 1: one fused kernel; sub shows its own autograd node.
Tensor scaledAdd(const BinaryEntry& e, const Tensor& self, const Tensor& other,
                 tensor::Scalar alpha) {
    bool sub = e.op == BinaryOp::Sub;
    Tensor r = tensor::addScaled(self, other, sub ? negated(alpha) : alpha);
    if (sub) tensor::renameGradFn(r, "SubBackward0");
    return r;
}

Value binaryFn(Interpreter& interp, const CallArgs& args, void* data) {
    const BinaryEntry& e = *static_cast<const BinaryEntry*>(data);
    BoundArgs a = e.sig.bind(interp, args);
    Tensor self = e.numberSelf ? tensorOrNumber(a, 0) : a.toTensor(0);
    Tensor other = e.numberOther ? tensorOrNumber(a, 1) : a.toTensor(1);
    // The out-of-place forms written back into self: their node must not hold it.
    auto source = [&] { return e.inPlace ? inPlaceSource(self) : self; };
    Tensor r;
    if (e.extra == Extra::Alpha && !(a[2].isInt() && a[2].asInt() == 1)) {
        r = scaledAdd(e, source(), other, scalarArg(a, 2));
    } else if (e.extra == Extra::RoundingMode && a.has(2)) {
        r = tensor::binary(roundingOp(interp, a[2]), source(), other);
        tensor::renameGradFn(r, "DivBackward2");
    } else if (e.inPlace) {
        tensor::binaryInPlace(e.op, self, other);
        return a[0];
    } else {
        r = tensor::binary(e.op, self, other);
    }
    if (e.inPlace) {
        assignInPlace(self, r);
        return a[0];
    }
    size_t outIndex = e.extra == Extra::None ? 2 : 3;
    return resultOrOut(a, outIndex, r);
}

struct UnaryName {
    const char* name;
    UnaryOp op;
    bool hasInPlace;
};

const UnaryName kUnaryNames[] = {
    {"abs", UnaryOp::Abs, true},
    {"absolute", UnaryOp::Abs, true},
    {"neg", UnaryOp::Neg, true},
    {"negative", UnaryOp::Neg, true},
    {"exp", UnaryOp::Exp, true},
    {"exp2", UnaryOp::Exp2, true},
    {"expm1", UnaryOp::Expm1, true},
    {"log", UnaryOp::Log, true},
    {"log2", UnaryOp::Log2, true},
    {"log10", UnaryOp::Log10, true},
    {"log1p", UnaryOp::Log1p, true},
    {"sqrt", UnaryOp::Sqrt, true},
    {"rsqrt", UnaryOp::Rsqrt, true},
    {"sin", UnaryOp::Sin, true},
    {"cos", UnaryOp::Cos, true},
    {"tan", UnaryOp::Tan, true},
    {"asin", UnaryOp::Asin, true},
    {"arcsin", UnaryOp::Asin, true},
    {"acos", UnaryOp::Acos, true},
    {"arccos", UnaryOp::Acos, true},
    {"atan", UnaryOp::Atan, true},
    {"arctan", UnaryOp::Atan, true},
    {"sinh", UnaryOp::Sinh, true},
    {"cosh", UnaryOp::Cosh, true},
    {"tanh", UnaryOp::Tanh, true},
    {"sigmoid", UnaryOp::Sigmoid, true},
    {"erf", UnaryOp::Erf, true},
    {"erfc", UnaryOp::Erfc, true},
    {"floor", UnaryOp::Floor, true},
    {"ceil", UnaryOp::Ceil, true},
    {"trunc", UnaryOp::Trunc, true},
    {"fix", UnaryOp::Trunc, true},
    {"frac", UnaryOp::Frac, true},
    {"sign", UnaryOp::Sign, true},
    {"reciprocal", UnaryOp::Reciprocal, true},
    {"square", UnaryOp::Square, true},
    {"relu", UnaryOp::Relu, true},
    {"logical_not", UnaryOp::LogicalNot, true},
    {"bitwise_not", UnaryOp::BitwiseNot, true},
    {"isnan", UnaryOp::IsNan, false},
    {"isinf", UnaryOp::IsInf, false},
    {"isfinite", UnaryOp::IsFinite, false},
};

struct BinaryName {
    const char* name;
    BinaryOp op;
    bool numberOther;
    Extra extra;
    bool hasInPlace;
    const char* params; ///< parameter list after `input` (PyTorch's names)
};

const BinaryName kBinaryNames[] = {
    {"add", BinaryOp::Add, true, Extra::Alpha, true, "other, *, alpha=1"},
    {"sub", BinaryOp::Sub, true, Extra::Alpha, true, "other, *, alpha=1"},
    {"subtract", BinaryOp::Sub, true, Extra::Alpha, true, "other, *, alpha=1"},
    {"mul", BinaryOp::Mul, true, Extra::None, true, "other"},
    {"multiply", BinaryOp::Mul, true, Extra::None, true, "other"},
    {"div", BinaryOp::Div, true, Extra::RoundingMode, true, "other, *, rounding_mode=None"},
    {"divide", BinaryOp::Div, true, Extra::RoundingMode, true, "other, *, rounding_mode=None"},
    {"true_divide", BinaryOp::Div, true, Extra::None, true, "other"},
    {"floor_divide", BinaryOp::FloorDiv, true, Extra::None, true, "other"},
    {"remainder", BinaryOp::Remainder, true, Extra::None, true, "other"},
    {"fmod", BinaryOp::Fmod, true, Extra::None, true, "other"},
    {"pow", BinaryOp::Pow, true, Extra::None, true, "exponent"},
    {"maximum", BinaryOp::Maximum, false, Extra::None, false, "other"},
    {"minimum", BinaryOp::Minimum, false, Extra::None, false, "other"},
    {"atan2", BinaryOp::Atan2, false, Extra::None, true, "other"},
    {"arctan2", BinaryOp::Atan2, false, Extra::None, true, "other"},
    {"eq", BinaryOp::Eq, true, Extra::None, true, "other"},
    {"ne", BinaryOp::Ne, true, Extra::None, true, "other"},
    {"not_equal", BinaryOp::Ne, true, Extra::None, true, "other"},
    {"lt", BinaryOp::Lt, true, Extra::None, true, "other"},
    {"less", BinaryOp::Lt, true, Extra::None, true, "other"},
    {"le", BinaryOp::Le, true, Extra::None, true, "other"},
    {"less_equal", BinaryOp::Le, true, Extra::None, true, "other"},
    {"gt", BinaryOp::Gt, true, Extra::None, true, "other"},
    {"greater", BinaryOp::Gt, true, Extra::None, true, "other"},
    {"ge", BinaryOp::Ge, true, Extra::None, true, "other"},
    {"greater_equal", BinaryOp::Ge, true, Extra::None, true, "other"},
    {"logical_and", BinaryOp::LogicalAnd, false, Extra::None, true, "other"},
    {"logical_or", BinaryOp::LogicalOr, false, Extra::None, true, "other"},
    {"logical_xor", BinaryOp::LogicalXor, false, Extra::None, true, "other"},
    {"bitwise_and", BinaryOp::BitwiseAnd, true, Extra::None, true, "other"},
    {"bitwise_or", BinaryOp::BitwiseOr, true, Extra::None, true, "other"},
    {"bitwise_xor", BinaryOp::BitwiseXor, true, Extra::None, true, "other"},
    {"bitwise_left_shift", BinaryOp::LeftShift, true, Extra::None, true, "other"},
    {"bitwise_right_shift", BinaryOp::RightShift, true, Extra::None, true, "other"},
};

/// The entries live for the whole process (interpreters come and go; the tables do not).
struct Tables {
    std::deque<UnaryEntry> unary;
    std::deque<BinaryEntry> binary;
    std::deque<std::string> names;
    std::vector<OpEntry> ops;
};

const Tables& tables() {
    static const Tables t = [] {
        Tables t;
        auto keep = [&](std::string s) { return t.names.emplace_back(std::move(s)).c_str(); };
        for (const UnaryName& u : kUnaryNames) {
            std::string base = u.name;
            t.unary.push_back({u.name, u.op, false, Signature(base + "(input, *, out=None)")});
            t.ops.push_back({u.name, unaryFn, true, true, &t.unary.back()});
            if (!u.hasInPlace) continue;
            const char* ip = keep(base + "_");
            t.unary.push_back({ip, u.op, true, Signature(std::string(ip) + "(input)")});
            t.ops.push_back({ip, unaryFn, base == "relu", true, &t.unary.back()});
        }
        for (const BinaryName& b : kBinaryNames) {
            std::string base = b.name;
            // The ops with a Scalar-self overload: torch.pow(2, x), torch.remainder(5, x).
            bool numberSelf = b.op == BinaryOp::Pow || b.op == BinaryOp::Remainder;
            std::string tail = std::string(b.params);
            std::string outTail =
                tail + (tail.find('*') == std::string::npos ? ", *" : "") + ", out=None)";
            t.binary.push_back({b.name, b.op, b.numberOther, numberSelf, b.extra, false,
                                Signature(base + "(input, " + outTail)});
            t.ops.push_back({b.name, binaryFn, true, true, &t.binary.back()});
            if (!b.hasInPlace) continue;
            const char* ip = keep(base + "_");
            t.binary.push_back({ip, b.op, b.numberOther, false, b.extra, true,
                                Signature(std::string(ip) + "(input, " + tail + ")")});
            t.ops.push_back({ip, binaryFn, false, true, &t.binary.back()});
        }
        return t;
    }();
    return t;
}

} // namespace

void installPointwiseOps(Interpreter& interp, ModuleObject& torch) {
    const Tables& t = tables();
    registerOps(interp, &torch.globals, t.ops);
    static const OpEntry extra[] = {
        {"round", roundFn<false>, true, true},
        {"round_", roundFn<true>, false, true},
    };
    registerOps(interp, &torch.globals, extra);
}

} // namespace kiln::torchapi
