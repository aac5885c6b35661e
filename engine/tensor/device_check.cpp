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

void failNoDeviceKernel(std::string_view op, Device device) {
    fail(ErrorKind::NotImplementedError,
         "Could not run '" + std::string(op) + "' with arguments from the '" +
             (device.isCuda() ? std::string("CUDA") : device.str()) +
             "' backend: Kiln has no eager " + (device.isCuda() ? "CUDA" : device.str()) +
             " kernel for it yet (eager GPU kernels arrive with the CUDA code generator). Move "
             "the tensors to the CPU with .cpu() to run it there.");
}

} // namespace kiln::tensor
