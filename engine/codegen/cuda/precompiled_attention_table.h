// SPDX-License-Identifier: MIT
/// \file
/// Internal: the table the build generates (cmake/EmbedAttentionCubins.cmake writes its
/// definition, empty where there is no nvcc).
#pragma once

#include <cstddef>
#include <span>

namespace kiln::codegen::cuda {

struct PrecompiledCubin {
    const char* entry;
    int computeCapability;
    const unsigned char* bytes;
    size_t size;
};

std::span<const PrecompiledCubin> precompiledAttentionTable();

} // namespace kiln::codegen::cuda
