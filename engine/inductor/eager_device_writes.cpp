// SPDX-License-Identifier: MIT
#include "inductor/eager_device_writes.h"

#include "lang/interpreter.h"
#include "lang/objects.h"
#include "lang/tensor_bridge.h"
#include "lang/types.h"
#include "runtime/cuda_memory.h"
#include "runtime/cuda_tensor.h"
#include "tensor/convert.h"
#include "tensor/device_transfer.h"
#include "tensor/elementwise.h"
#include "tensor/ops.h"

#include <cstring>

namespace kiln::inductor {

namespace {

using lang::Value;
using tensor::Tensor;

[[noreturn]] void raiseRuntime(lang::Interpreter& interp, const std::string& message) {
    interp.raise(lang::builtinTypes().runtimeError.get(), message);
}

/// The driver's context when there is a device (never for the pretend device of tests).
const runtime::CudaContext* deviceContext() {
    Expected<const runtime::CudaContext*> context = runtime::cudaContext(0);
    return context ? *context : nullptr;
}

bool sameLayout(const Tensor& a, const Tensor& b) {
    return a.sizes() == b.sizes() && a.strides() == b.strides();
}

/// `target` = `source` (broadcast to the target's shape): on the device when both are dense CUDA
/// tensors of one dtype and layout, through host memory otherwise.
void copyInto(lang::Interpreter& interp, const Tensor& target, const Tensor& source) {
    Tensor src = source.sizes() == target.sizes() ? source : tensor::expand(source, target.sizes());
    const runtime::CudaContext* context = deviceContext();
    if (context && src.device() == target.device() && src.dtype() == target.dtype() &&
        sameLayout(src, target) && tensor::isNonOverlappingAndDense(target)) {
        size_t bytes = static_cast<size_t>(target.numel() * tensor::itemSize(target.dtype()));
        Status s = runtime::copyDeviceToDevice(*context, runtime::devicePointer(target),
                                               runtime::devicePointer(src), bytes);
        if (!s) raiseRuntime(interp, s.error().message);
        return;
    }
    tensor::copyInto(target, src);
}

/// fill_(value): a memset of the value's bytes over a dense target of 1-, 2- or 4-byte
/// elements; otherwise a host tensor of the value copied in.
void fill(lang::Interpreter& interp, const Tensor& target, tensor::Scalar value) {
    Tensor one = tensor::scalarTensor(value, target.dtype());
    size_t item = static_cast<size_t>(tensor::itemSize(target.dtype()));
    const runtime::CudaContext* context = deviceContext();
    if (context && tensor::isNonOverlappingAndDense(target) && item <= 4 && item != 3) {
        uint32_t pattern = 0;
        std::memcpy(&pattern, one.rawData(), item);
        Status s =
            runtime::fillDevicePattern(*context, runtime::devicePointer(target), pattern,
                                       static_cast<int>(item), static_cast<size_t>(target.numel()));
        if (!s) raiseRuntime(interp, s.error().message);
        return;
    }
    tensor::copyInto(target, tensor::expand(one, target.sizes()));
}

std::optional<tensor::Scalar> fillValue(lang::Interpreter& interp, const Value& v) {
    if (v.isTensor()) {
        const Tensor& t = v.asTensor();
        if (t.dim() != 0)
            raiseRuntime(interp, "fill_ only supports 0-dimension value tensor but got tensor "
                                 "with " +
                                     std::to_string(t.dim()) + " dimensions.");
        return tensor::item(t);
    }
    return lang::asScalar(v);
}

} // namespace

std::optional<Value> runDeviceWrite(lang::Interpreter& interp, const lang::DeviceOpCall& call) {
    bool named = call.form == lang::DeviceOpCall::Form::Method ||
                 call.form == lang::DeviceOpCall::Form::Function;
    if (!named || call.args.positional.empty() || !call.args.positional[0].isTensor() ||
        call.args.keywordNames.size() > 0)
        return std::nullopt;
    const Value& self = call.args.positional[0];
    const Tensor& target = self.asTensor();
    size_t extra = call.args.positional.size() - 1;
    if (call.name == "zero_" || call.name == "fill_") tensor::runAllPendingFills();
    if (call.name == "zero_" && extra == 0) {
        fill(interp, target, tensor::Scalar(int64_t(0)));
        return self;
    }
    if (call.name == "fill_" && extra == 1) {
        std::optional<tensor::Scalar> value = fillValue(interp, call.args.positional[1]);
        if (!value) return std::nullopt;
        fill(interp, target, *value);
        return self;
    }
    return std::nullopt;
}

Value writeResultInto(lang::Interpreter& interp, const Value& target, const Value& result) {
    tensor::runAllPendingFills(); // what deferred ops read must not change before they run
    const Tensor& self = target.asTensor();
    const Tensor& r = result.asTensor();
    // PyTorch's checks of an in-place op's output, with its messages (RuntimeError).
    tensor::detail::checkInPlaceTarget(self, r.sizes());
    tensor::detail::checkCanCastResult(r.dtype(), self.dtype());
    copyInto(interp, self, r.dtype() == self.dtype() ? r : tensor::toDType(r, self.dtype()));
    return target;
}

} // namespace kiln::inductor
