// SPDX-License-Identifier: MIT
#include "codegen/cuda/cuda_kernel.h"

#include <algorithm>

namespace kiln::codegen::cuda {

LaunchDims LaunchDescriptor::evaluate(std::span<const int64_t> symbols) const {
    LaunchDims d;
    int64_t items = work ? compiler::evaluate(work, {}, symbols) : 1;
    int64_t blocks = std::max<int64_t>(1, (items + itemsPerBlock - 1) / itemsPerBlock);
    if (maxBlocks > 0) blocks = std::min(blocks, maxBlocks);
    d.grid[0] = blocks;
    d.block[0] = threads;
    d.dynamicSharedBytes = dynamicSharedBytes;
    return d;
}

const char* rowStrategyName(RowStrategy s) {
    switch (s) {
    case RowStrategy::WarpPerRow:
        return "warp_per_row";
    case RowStrategy::BlockPerRow:
        return "block_per_row";
    default:
        return "none";
    }
}

} // namespace kiln::codegen::cuda
