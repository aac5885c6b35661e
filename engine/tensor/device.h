// SPDX-License-Identifier: MIT
/// \file
/// Devices a tensor can live on.
#pragma once

#include <cstdint>
#include <string>

namespace kiln::tensor {

enum class DeviceType : uint8_t { CPU, CUDA };

struct Device {
    DeviceType type = DeviceType::CPU;
    int32_t index = -1; ///< -1: the current device of that type

    bool isCpu() const { return type == DeviceType::CPU; }
    bool isCuda() const { return type == DeviceType::CUDA; }
    /// "cpu", "cuda", "cuda:0" as str(torch.device) prints it.
    std::string str() const;
    friend bool operator==(const Device&, const Device&) = default;
};

} // namespace kiln::tensor
