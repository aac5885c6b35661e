// SPDX-License-Identifier: MIT
#include "lang/device_ops.h"

#include "tensor/device_check.h"

#include <atomic>
#include <vector>

namespace kiln::lang {

namespace {

std::atomic<DeviceOpHandler> g_handler{nullptr};

template <typename F>
void forEachTensor(const CallArgs& args, F&& f) {
    auto visit = [&](const Value& v) {
        if (v.isTensor()) {
            f(v.asTensor());
        } else if (v.is(ObjectKind::List) || v.is(ObjectKind::Tuple)) {
            const auto& items =
                v.is(ObjectKind::List) ? v.as<ListObject>()->items : v.as<TupleObject>()->items;
            for (const Value& item : items)
                if (item.isTensor()) f(item.asTensor());
        }
    };
    for (const Value& v : args.positional)
        visit(v);
    for (const Value& v : args.keywordValues)
        visit(v);
}

} // namespace

void setDeviceOpHandler(DeviceOpHandler handler) {
    g_handler.store(handler);
}

DeviceOpHandler deviceOpHandler() {
    return g_handler.load();
}

tensor::Device operandDevice(const CallArgs& args) {
    // Every eager op passes here: the common all-CPU case only looks, it allocates nothing.
    bool device = false;
    forEachTensor(args, [&](const tensor::Tensor& t) { device = device || !t.device().isCpu(); });
    if (!device) return tensor::Device{};
    std::vector<tensor::Tensor> tensors;
    forEachTensor(args, [&](const tensor::Tensor& t) { tensors.push_back(t); });
    return tensor::commonDevice(tensors);
}

std::optional<Value> dispatchToDevice(Interpreter& interp, const DeviceOpCall& call) {
    tensor::Device device = operandDevice(call.args);
    if (device.isCpu()) return std::nullopt;
    DeviceOpHandler handler = deviceOpHandler();
    std::string op =
        call.form == DeviceOpCall::Form::Function || call.form == DeviceOpCall::Form::Method
            ? "aten::" + std::string(call.name)
            : "operator " + std::string(call.name);
    if (!handler || !device.isCuda()) tensor::failNoDeviceKernel(op, device);
    return handler(interp, call);
}

} // namespace kiln::lang
