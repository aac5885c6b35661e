// SPDX-License-Identifier: MIT
/// \file
/// Eager ops whose tensor operands are on a CUDA device. The CPU kernel tables stop at device
/// memory; the torch bindings and the tensor operators hand such a call to the handler the
/// engine installs (inductor/eager_device_ops: the op as a single-op graph through the
/// compiler, compiled once per signature), or, with none installed, raise NotImplementedError.
#pragma once

#include "lang/objects.h"
#include "tensor/tensor.h"

#include <optional>
#include <string_view>

namespace kiln::lang {

struct DeviceOpCall {
    /// How the script called it: torch.<name>(...) / Tensor.<name>(...), or an operator.
    enum class Form : uint8_t { Function, Method, Binary, Compare, Unary };
    Form form = Form::Function;
    std::string_view name;    ///< the op ("sin", "linear"); operators: their symbol ("+")
    uint8_t operatorCode = 0; ///< BinaryOperator / CompareOperator / UnaryOperator
    CallArgs args;            ///< operators: the operands, positionally
    bool inPlace = false;     ///< a += b: the result is written into the first operand
};

using DeviceOpHandler = Value (*)(Interpreter&, const DeviceOpCall&);

void setDeviceOpHandler(DeviceOpHandler handler);
DeviceOpHandler deviceOpHandler();

/// The device the call's tensor operands are on (tensors inside lists and tuples included;
/// 0-dim host tensors go along with device ones). RuntimeError when they are on two devices.
tensor::Device operandDevice(const CallArgs& args);

/// Runs `call` on the device when its operands are on one: the handler's result, or
/// NotImplementedError naming `call.name` when there is no handler. nullopt for host operands.
std::optional<Value> dispatchToDevice(Interpreter& interp, const DeviceOpCall& call);

} // namespace kiln::lang
