// SPDX-License-Identifier: MIT
#include "codegen/cuda/precompiled_attention.h"

#include "codegen/cuda/precompiled_attention_table.h"

namespace kiln::codegen::cuda {

std::string_view precompiledAttentionCubin(std::string_view entry, int computeCapability) {
    for (const PrecompiledCubin& c : precompiledAttentionTable())
        if (c.computeCapability == computeCapability && entry == c.entry)
            return std::string_view(reinterpret_cast<const char*>(c.bytes), c.size);
    return {};
}

int precompiledAttentionCount() {
    return static_cast<int>(precompiledAttentionTable().size());
}

} // namespace kiln::codegen::cuda
