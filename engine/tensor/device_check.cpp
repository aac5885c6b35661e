// SPDX-License-Identifier: MIT
#include "tensor/device_check.h"

#include "tensor/error.h"

#include <algorithm>
#include <optional>

namespace kiln::tensor {

namespace {

Device shown(Device d) {
    return d.isCpu() ? d : Device{d.type, std::max(d.index, 0)};
}

} // namespace

Device commonDevice(std::span<const Tensor> operands) {
    std::optional<Device> device;
    for (const Tensor& t : operands) {
        Device d = shown(t.device());
        if (d.isCpu() && t.dim() == 0) continue;
        if (!device) {
            device = d;
        } else if (*device != d) {
            std::string first = device->str(), second = d.str();
            // PyTorch names the device tensor first.
            if (device->isCpu()) std::swap(first, second);
            failRuntime("Expected all tensors to be on the same device, but found at least two "
                        "devices, " +
                        first + " and " + second + "!");
        }
    }
    if (device) return *device;
    return Device{};
}

void failNoDeviceKernel(std::string_view op, Device device, std::string_view why) {
    std::string backend = device.isCuda() ? std::string("CUDA") : device.str();
    std::string reason = why.empty()
                             ? "Kiln has no eager " + backend + " kernels in this build"
                             : "Kiln has no " + backend + " kernel for it: " + std::string(why);
    fail(ErrorKind::NotImplementedError,
         "Could not run '" + std::string(op) + "' with arguments from the '" + backend +
             "' backend: " + reason + ". Move the tensors to the CPU with .cpu() to run it there.");
}

} // namespace kiln::tensor
