// SPDX-License-Identifier: MIT
#include "inductor/eager_device_closeness.h"

#include "lang/interpreter.h"
#include "lang/objects.h"
#include "lang/signature.h"
#include "lang/types.h"
#include "tensor/dtype.h"

namespace kiln::inductor {

namespace {

using lang::Value;

Value torchCall(lang::Interpreter& interp, const char* name, std::initializer_list<Value> args) {
    Value torch(interp.importModule("torch"));
    return interp.call(interp.getAttr(torch, lang::Symbol::intern(name)), args);
}

Value method(lang::Interpreter& interp, const Value& self, const char* name,
             std::initializer_list<Value> args = {}) {
    return interp.callMethod(self, lang::Symbol::intern(name), args);
}

void checkSameDtype(lang::Interpreter& interp, const Value& a, const Value& b) {
    tensor::DType x = a.asTensor().dtype(), y = b.asTensor().dtype();
    if (x != y)
        interp.raise(lang::builtinTypes().runtimeError.get(),
                     std::string(tensor::dtypeLegacyName(x)) + " did not match " +
                         std::string(tensor::dtypeLegacyName(y)));
}

/// isclose's boolean tensor, on the device of a and b.
Value isclose(lang::Interpreter& interp, const Value& a, const Value& b, double rtol, double atol,
              bool equalNan) {
    checkSameDtype(interp, a, b);
    Value equal = method(interp, a, "eq", {b}); // infinities of one sign are close
    Value diff = method(interp, method(interp, a, "sub", {b}), "abs");
    Value tolerance =
        method(interp, method(interp, method(interp, b, "abs"), "mul", {Value::fromFloat(rtol)}),
               "add", {Value::fromFloat(atol)});
    Value close = method(interp, equal, "logical_or", {method(interp, diff, "le", {tolerance})});
    if (!equalNan) return close;
    Value bothNan =
        method(interp, method(interp, a, "ne", {a}), "logical_and", {method(interp, b, "ne", {b})});
    return method(interp, close, "logical_or", {bothNan});
}

bool allTrue(lang::Interpreter& interp, const Value& t) {
    return interp.truthy(method(interp, method(interp, t, "all"), "item"));
}

} // namespace

std::optional<Value> runDeviceCloseness(lang::Interpreter& interp, const lang::DeviceOpCall& call) {
    using Form = lang::DeviceOpCall::Form;
    if (call.form != Form::Function && call.form != Form::Method) return std::nullopt;
    if (call.name == "isclose" || call.name == "allclose") {
        static const lang::Signature sig(
            "isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)");
        lang::BoundArgs a = sig.bind(interp, call.args);
        if (!a[0].isTensor() || !a[1].isTensor()) return std::nullopt;
        Value close = isclose(interp, a[0], a[1], a.toDouble(2), a.toDouble(3), a.toBool(4));
        if (call.name == "isclose") return close;
        return Value::fromBool(allTrue(interp, close));
    }
    if (call.name == "equal") {
        static const lang::Signature sig("equal(input, other)");
        lang::BoundArgs a = sig.bind(interp, call.args);
        if (!a[0].isTensor() || !a[1].isTensor()) return std::nullopt;
        if (a[0].asTensor().sizes() != a[1].asTensor().sizes()) return Value::fromBool(false);
        return Value::fromBool(allTrue(interp, method(interp, a[0], "eq", {a[1]})));
    }
    return std::nullopt;
}

} // namespace kiln::inductor
