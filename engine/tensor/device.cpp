// SPDX-License-Identifier: MIT
#include "tensor/device.h"

namespace kiln::tensor {

std::string Device::str() const {
    if (type == DeviceType::CPU) return "cpu";
    return index < 0 ? std::string("cuda") : "cuda:" + std::to_string(index);
}

} // namespace kiln::tensor
