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

void VectorPathCondition::requireAligned(int32_t buffer, int bytes) {
    for (Aligned& a : aligned)
        if (a.buffer == buffer) {
            a.bytes = std::max(a.bytes, bytes);
            return;
        }
    aligned.push_back({buffer, bytes});
}

void VectorPathCondition::requireMultiple(const compiler::Index& value, int64_t of) {
    for (const Multiple& m : multiples)
        if (m.of == of && compiler::equal(m.value, value)) return;
    multiples.push_back({value, of});
}

bool VectorPathCondition::holds(std::span<const uint64_t> addresses,
                                std::span<const int64_t> symbols) const {
    for (const Aligned& a : aligned)
        if (addresses[static_cast<size_t>(a.buffer)] % static_cast<uint64_t>(a.bytes) != 0)
            return false;
    for (const Multiple& m : multiples)
        if (compiler::evaluate(m.value, {}, symbols) % m.of != 0) return false;
    return true;
}

const char* kernelPathDefine(KernelPath path) {
    switch (path) {
    case KernelPath::Vector:
        return "-DKILN_VECTOR_PATH_ONLY";
    case KernelPath::Scalar:
        return "-DKILN_SCALAR_PATH_ONLY";
    default:
        return "";
    }
}

const char* kernelPathName(KernelPath path) {
    switch (path) {
    case KernelPath::Vector:
        return "vector";
    case KernelPath::Scalar:
        return "scalar";
    default:
        return "both";
    }
}

KernelPath CudaKernel::pathFor(std::span<const uint64_t> addresses,
                               std::span<const int64_t> symbols) const {
    if (!vectorPath) return KernelPath::Both;
    return vectorPath->holds(addresses, symbols) ? KernelPath::Vector : KernelPath::Scalar;
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
