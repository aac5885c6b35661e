// SPDX-License-Identifier: MIT
#include "lang/tensor_bridge.h"

#include "lang/device_ops.h"
#include "tensor/convert.h"
#include "tensor/device_check.h"
#include "tensor/shape.h"

namespace kiln::lang {

using tensor::Tensor;

std::optional<tensor::Scalar> asScalar(const Value& v) {
    if (v.isBool()) return tensor::Scalar(v.asBool());
    if (v.isInt()) return tensor::Scalar(v.asInt());
    if (v.isFloat()) return tensor::Scalar(v.asFloat());
    return std::nullopt;
}

Tensor asTensorOperand(Interpreter& interp, const Value& v, const char* opSymbol,
                       const Value& other) {
    if (v.isTensor()) return v.asTensor();
    if (auto s = asScalar(v)) return tensor::wrapNumber(*s);
    interp.raiseTypeError(std::string("unsupported operand type(s) for ") + opSymbol + ": '" +
                          interp.typeName(v) + "' and '" + interp.typeName(other) + "'");
}

namespace {

std::optional<tensor::BinaryOp> tensorOpFor(BinaryOperator op) {
    using B = tensor::BinaryOp;
    switch (op) {
    case BinaryOperator::Add:
        return B::Add;
    case BinaryOperator::Sub:
        return B::Sub;
    case BinaryOperator::Mul:
        return B::Mul;
    case BinaryOperator::Div:
        return B::Div;
    case BinaryOperator::FloorDiv:
        return B::FloorDiv;
    case BinaryOperator::Mod:
        return B::Remainder;
    case BinaryOperator::Pow:
        return B::Pow;
    case BinaryOperator::LShift:
        return B::LeftShift;
    case BinaryOperator::RShift:
        return B::RightShift;
    case BinaryOperator::BitAnd:
        return B::BitwiseAnd;
    case BinaryOperator::BitOr:
        return B::BitwiseOr;
    case BinaryOperator::BitXor:
        return B::BitwiseXor;
    case BinaryOperator::MatMul:
        return std::nullopt;
    }
    return std::nullopt;
}

tensor::BinaryOp compareOpFor(CompareOperator op) {
    using B = tensor::BinaryOp;
    switch (op) {
    case CompareOperator::Eq:
        return B::Eq;
    case CompareOperator::NotEq:
        return B::Ne;
    case CompareOperator::Lt:
        return B::Lt;
    case CompareOperator::LtE:
        return B::Le;
    case CompareOperator::Gt:
        return B::Gt;
    default:
        return B::Ge;
    }
}

bool isTensorOperand(const Value& v) {
    return v.isTensor() || v.isNumber();
}

tensor::IndexItem indexItemFor(Interpreter& interp, const Value& v) {
    tensor::IndexItem item;
    using K = tensor::IndexItem::Kind;
    if (v.isBool()) {
        item.kind = K::Boolean;
        item.boolean = v.asBool();
    } else if (v.isInt()) {
        item.kind = K::Integer;
        item.integer = v.asInt();
    } else if (v.isNone()) {
        item.kind = K::None;
    } else if (v.identical(ellipsisValue())) {
        item.kind = K::Ellipsis;
    } else if (v.is(ObjectKind::Slice)) {
        auto* s = v.as<SliceObject>();
        item.kind = K::Slice;
        auto part = [&](const Value& x) -> std::optional<int64_t> {
            if (x.isNone()) return std::nullopt;
            auto i = asIndex(interp, x);
            if (!i)
                interp.raiseTypeError("slice indices must be integers or None or have an "
                                      "__index__ method");
            return i;
        };
        item.start = part(s->start);
        item.stop = part(s->stop);
        item.step = part(s->step).value_or(1);
        if (item.step <= 0)
            interp.raiseValueError(item.step == 0 ? "slice step cannot be zero"
                                                  : "step must be greater than zero");
    } else if (v.isTensor()) {
        item.kind = K::Tensor;
        item.tensor = legacyByteMask(interp, v.asTensor(),
                                     "indexing with dtype torch.uint8 is now deprecated, please "
                                     "use a dtype torch.bool instead. (Triggered internally at "
                                     "../aten/src/ATen/native/IndexingUtils.h:27.)");
    } else if (v.is(ObjectKind::List)) {
        item.kind = K::Tensor;
        item.tensor = tensorFromValue(interp, v, std::nullopt);
    } else if (v.is(ObjectKind::Str)) {
        // PyTorch tries to read a str index as sequence data for a tensor index.
        interp.raiseTypeError("new(): invalid data type 'str'");
    } else {
        interp.raise(builtinTypes().indexError.get(),
                     "only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                     "Variables are valid indices (got " +
                         interp.typeName(v) + ")");
    }
    return item;
}

std::vector<tensor::IndexItem> indexItems(Interpreter& interp, const Value& key) {
    std::vector<tensor::IndexItem> items;
    if (key.is(ObjectKind::Tuple)) {
        for (const Value& v : key.as<TupleObject>()->items)
            items.push_back(indexItemFor(interp, v));
    } else {
        items.push_back(indexItemFor(interp, key));
    }
    return items;
}

// Infers shape and dtype of nested Python lists of numbers, as torch.tensor does.
struct NestedData {
    tensor::DimVector sizes;
    std::vector<tensor::Scalar> values;
    bool sawFloat = false, sawInt = false, sawBool = false;
    std::optional<tensor::DType> tensorDType;
};

void collectNested(Interpreter& interp, const Value& v, size_t depth, NestedData& out) {
    if (v.is(ObjectKind::List) || v.is(ObjectKind::Tuple)) {
        const auto& items =
            v.is(ObjectKind::List) ? v.as<ListObject>()->items : v.as<TupleObject>()->items;
        int64_t n = static_cast<int64_t>(items.size());
        if (depth == out.sizes.size())
            out.sizes.push_back(n);
        else if (out.sizes[depth] != n)
            interp.raiseValueError("expected sequence of length " +
                                   std::to_string(out.sizes[depth]) + " at dim " +
                                   std::to_string(depth) + " (got " + std::to_string(n) + ")");
        for (const Value& item : items)
            collectNested(interp, item, depth + 1, out);
        return;
    }
    if (depth < out.sizes.size())
        interp.raiseValueError("expected sequence of length " + std::to_string(out.sizes[depth]) +
                               " at dim " + std::to_string(depth) + " (got " + interp.typeName(v) +
                               ")");
    if (v.isTensor()) {
        Tensor t = v.asTensor();
        if (t.numel() != 1 || t.dim() != 0)
            interp.raiseValueError("only one element tensors can be converted to Python scalars");
        tensor::Scalar s = tensor::item(t);
        out.tensorDType =
            out.tensorDType ? tensor::promoteTypes(*out.tensorDType, t.dtype()) : t.dtype();
        out.values.push_back(s);
        return;
    }
    auto s = asScalar(v);
    if (!s) interp.raiseTypeError("new(): invalid data type '" + interp.typeName(v) + "'");
    out.sawFloat |= s->isFloat();
    out.sawInt |= s->isInt();
    out.sawBool |= s->isBool();
    out.values.push_back(*s);
}

} // namespace

Tensor tensorFromValue(Interpreter& interp, const Value& v, std::optional<tensor::DType> dtype) {
    if (v.isTensor())
        return dtype ? tensor::toDType(v.asTensor(), *dtype, true) : tensor::clone(v.asTensor());
    NestedData data;
    collectNested(interp, v, 0, data);
    tensor::DType inferred = data.sawFloat  ? tensor::defaultFloatDType()
                             : data.sawInt  ? tensor::DType::Int64
                             : data.sawBool ? tensor::DType::Bool
                                            : tensor::defaultFloatDType();
    if (data.tensorDType && !data.sawFloat && !data.sawInt && !data.sawBool)
        inferred = *data.tensorDType;
    return tensor::fromScalars(data.values, data.sizes, dtype.value_or(inferred));
}

Tensor tensorGetItem(Interpreter& interp, const Tensor& t, const Value& key) {
    if (key.isInt() && t.dim() > 0) {
        int64_t size = t.size(0);
        int64_t i = key.asInt();
        if (i < -size || i >= size)
            interp.raise(builtinTypes().indexError.get(),
                         "index " + std::to_string(i) +
                             " is out of bounds for dimension 0 with size " + std::to_string(size));
        return tensor::select(t, 0, i);
    }
    return tensor::index(t, indexItems(interp, key));
}

namespace {

/// PyTorch writes one value through a key with a single bool or uint8 tensor as masked_fill_
/// (index_put_'s canDispatchToMaskedFill), whose refusal of uint8 masks is then the error.
void refuseByteMaskFill(Interpreter& interp, const Value& key, const Value& value) {
    bool one = value.isTensor() ? value.asTensor().numel() == 1 : asScalar(value).has_value();
    if (!one) return;
    const std::vector<Value> single{key};
    const auto& items = key.is(ObjectKind::Tuple) ? key.as<TupleObject>()->items : single;
    int tensors = 0;
    bool byteMask = false;
    for (const Value& v : items) {
        if (!v.isTensor() && !v.is(ObjectKind::List)) continue;
        ++tensors;
        byteMask = v.isTensor() && v.asTensor().dtype() == tensor::DType::UInt8;
    }
    if (tensors == 1 && byteMask)
        interp.raise(builtinTypes().runtimeError.get(),
                     "masked_fill_ only supports boolean masks, but got mask with dtype "
                     "unsigned char");
}

} // namespace

void tensorSetItem(Interpreter& interp, const Tensor& t, const Value& key, const Value& value) {
    if (auto number = asScalar(value)) tensor::checkScalarFits(*number, t.dtype());
    refuseByteMaskFill(interp, key, value);
    Tensor source = value.isTensor() ? value.asTensor() : tensorFromValue(interp, value, t.dtype());
    tensor::indexPut(t, indexItems(interp, key), source);
}

/// The operators' dispatch, the same the torch bindings make: operands on one device, and
/// device operands computed by the eager device ops.
static std::optional<Value> onDevice(Interpreter& interp, DeviceOpCall::Form form,
                                     const char* symbol, uint8_t code,
                                     std::initializer_list<Value> operands, bool inPlace = false) {
    std::vector<Value> values(operands);
    DeviceOpCall call{form, symbol, code, CallArgs{values, {}, {}}, inPlace};
    return dispatchToDevice(interp, call);
}

Value tensorBinaryEager(Interpreter& interp, BinaryOperator op, const Value& a, const Value& b,
                        bool inPlace) {
    if (!isTensorOperand(a) || !isTensorOperand(b)) return Value();
    if (op == BinaryOperator::MatMul) {
        if (!a.isTensor() || !b.isTensor())
            return Value(); // Tensor.__matmul__ returns NotImplemented for numbers
        if (auto r = onDevice(interp, DeviceOpCall::Form::Binary, "@", static_cast<uint8_t>(op),
                              {a, b}, inPlace))
            return *r;
        Tensor r = tensor::matmul(a.asTensor(), b.asTensor());
        if (inPlace) {
            tensor::copyInto(a.asTensor(), r);
            return a;
        }
        return Value(r);
    }
    if (auto r = onDevice(interp, DeviceOpCall::Form::Binary, binaryOperatorSymbol(op),
                          static_cast<uint8_t>(op), {a, b}, inPlace))
        return *r;
    tensor::BinaryOp top = *tensorOpFor(op);
    Tensor ta = asTensorOperand(interp, a, binaryOperatorSymbol(op), b);
    Tensor tb = asTensorOperand(interp, b, binaryOperatorSymbol(op), a);
    if (inPlace && a.isTensor()) {
        tensor::binaryInPlace(top, ta, tb);
        return a;
    }
    return Value(tensor::binary(top, ta, tb));
}

Value tensorCompareEager(Interpreter& interp, CompareOperator op, const Value& a, const Value& b) {
    if (!isTensorOperand(a) || !isTensorOperand(b)) {
        if (op == CompareOperator::Eq) return Value::fromBool(false);
        if (op == CompareOperator::NotEq) return Value::fromBool(true);
        return Value();
    }
    if (auto r = onDevice(interp, DeviceOpCall::Form::Compare, compareOperatorSymbol(op),
                          static_cast<uint8_t>(op), {a, b}))
        return *r;
    Tensor ta = asTensorOperand(interp, a, compareOperatorSymbol(op), b);
    Tensor tb = asTensorOperand(interp, b, compareOperatorSymbol(op), a);
    return Value(tensor::binary(compareOpFor(op), ta, tb));
}

Value tensorUnaryEager(Interpreter& interp, UnaryOperator op, const Tensor& t) {
    if (op == UnaryOperator::Neg || op == UnaryOperator::Invert)
        if (auto r =
                onDevice(interp, DeviceOpCall::Form::Unary, op == UnaryOperator::Neg ? "-" : "~",
                         static_cast<uint8_t>(op), {Value(t)}))
            return *r;
    switch (op) {
    case UnaryOperator::Neg:
        if (t.dtype() == tensor::DType::Bool)
            interp.raise(builtinTypes().notImplementedError.get(),
                         "Negation, the `-` operator, on a bool tensor is not supported. If you "
                         "are trying to invert a mask, use the `~` or `logical_not()` operator "
                         "instead.");
        return Value(tensor::unary(tensor::UnaryOp::Neg, t));
    case UnaryOperator::Pos:
        return Value(t);
    case UnaryOperator::Invert:
        return Value(tensor::unary(t.dtype() == tensor::DType::Bool ? tensor::UnaryOp::LogicalNot
                                                                    : tensor::UnaryOp::BitwiseNot,
                                   t));
    case UnaryOperator::Not:
        return Value::fromBool(!interp.truthy(Value(t)));
    }
    return Value();
}

} // namespace kiln::lang

namespace kiln::lang {

namespace {

bool anyTraced(TraceRecorder* r, std::initializer_list<const Value*> values) {
    for (const Value* v : values)
        if (r->isTraced(*v)) return true;
    return false;
}

} // namespace

Value tensorBinary(Interpreter& interp, BinaryOperator op, const Value& a, const Value& b,
                   bool inPlace) {
    TraceRecorder* r = interp.recorder();
    if (r && anyTraced(r, {&a, &b})) [[unlikely]] {
        Value args[2] = {a, b};
        return r->callOperator(inPlace ? OperatorCall::InplaceBinary : OperatorCall::Binary,
                               static_cast<uint8_t>(op), args,
                               [&] { return tensorBinaryEager(interp, op, a, b, inPlace); });
    }
    return tensorBinaryEager(interp, op, a, b, inPlace);
}

Value tensorCompare(Interpreter& interp, CompareOperator op, const Value& a, const Value& b) {
    TraceRecorder* r = interp.recorder();
    if (r && anyTraced(r, {&a, &b})) [[unlikely]] {
        Value args[2] = {a, b};
        return r->callOperator(OperatorCall::Compare, static_cast<uint8_t>(op), args,
                               [&] { return tensorCompareEager(interp, op, a, b); });
    }
    return tensorCompareEager(interp, op, a, b);
}

Value tensorUnary(Interpreter& interp, UnaryOperator op, const Tensor& t) {
    TraceRecorder* r = interp.recorder();
    Value v(t);
    if (r && r->isTraced(v)) [[unlikely]] {
        Value args[1] = {v};
        return r->callOperator(OperatorCall::Unary, static_cast<uint8_t>(op), args,
                               [&] { return tensorUnaryEager(interp, op, t); });
    }
    return tensorUnaryEager(interp, op, t);
}

Value tensorItem(Interpreter& interp, const Value& object, const Value& key) {
    TraceRecorder* r = interp.recorder();
    if (r && anyTraced(r, {&object, &key})) [[unlikely]] {
        Value args[2] = {object, key};
        return r->callOperator(OperatorCall::GetItem, 0, args, [&] {
            return Value(tensorGetItem(interp, object.asTensor(), key));
        });
    }
    return Value(tensorGetItem(interp, object.asTensor(), key));
}

void tensorAssignItem(Interpreter& interp, const Value& object, const Value& key,
                      const Value& value) {
    TraceRecorder* r = interp.recorder();
    if (r && anyTraced(r, {&object, &key, &value})) [[unlikely]] {
        Value args[3] = {object, key, value};
        r->callOperator(OperatorCall::SetItem, 0, args, [&] {
            tensorSetItem(interp, object.asTensor(), key, value);
            return Value::none();
        });
        return;
    }
    tensorSetItem(interp, object.asTensor(), key, value);
}

void warnUser(Interpreter& interp, const std::string& message) {
    Ref<ModuleObject> warnings = interp.importModule("warnings");
    const Value* warn = warnings->globals.find(Symbol::intern("warn"));
    KILN_ASSERT(warn, "the warnings module has no warn()");
    interp.call(*warn, {strValue(message)});
}

tensor::Tensor legacyByteMask(Interpreter& interp, const tensor::Tensor& mask,
                              const std::string& warning) {
    if (mask.dtype() != tensor::DType::UInt8) return mask;
    warnUser(interp, warning);
    return tensor::toDType(mask, tensor::DType::Bool);
}

} // namespace kiln::lang
