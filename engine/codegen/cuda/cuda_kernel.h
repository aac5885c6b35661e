// SPDX-License-Identifier: MIT
/// \file
/// What CUDA code generation hands to the runtime: the kernel's CUDA C++ source, its entry
/// name, the arguments it takes (device pointers of buffers, then size symbols as int64), and a
/// launch descriptor that turns the graph's size symbols into a grid, a block and the dynamic
/// shared memory. The runtime (engine/runtime) loads the compiled image and launches it; nothing
/// here needs a GPU.
#pragma once

#include "compiler/index_expr.h"
#include "tensor/dtype.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kiln::codegen::cuda {

/// One kernel parameter, in order: a buffer's device pointer (its first element; the indices in
/// the kernel include the buffer's offset) or a size symbol's value as a 64-bit integer.
struct KernelArg {
    enum class Kind : uint8_t { Buffer, Symbol };
    Kind kind = Kind::Buffer;
    int32_t id = -1;  ///< buffer id or symbol number
    std::string name; ///< "in_ptr0", "out_ptr1", "s0": the parameter's name in the source
    tensor::DType dtype = tensor::DType::Float32; ///< Buffer: element type
    bool written = false;                         ///< Buffer: the kernel stores to it
};

struct LaunchDims {
    int64_t grid[3] = {1, 1, 1};
    int block[3] = {1, 1, 1};
    int dynamicSharedBytes = 0;
};

/// grid.x = ceil(work / itemsPerBlock), clamped to maxBlocks (the kernel then strides over the
/// rest), block.x = threads. `work` counts what one block's items are: vectors of elements for
/// pointwise kernels, rows for reductions.
struct LaunchDescriptor {
    compiler::Index work;       ///< in the graph's size symbols
    int64_t itemsPerBlock = 1;  ///< work items one block covers per pass
    int threads = 128;          ///< threads per block
    int dynamicSharedBytes = 0; ///< per block
    int64_t maxBlocks = 0;      ///< 0: no clamp (the grid covers `work` in one pass)

    LaunchDims evaluate(std::span<const int64_t> symbols) const;
};

/// What a launch must satisfy for a kernel's vector path: the buffers it reads or writes with
/// vector accesses aligned to the access's bytes, and the size expressions those accesses
/// assume divisible by the width. The kernel tests the same conditions itself; the host tests
/// them before a launch to pick the image of the path the launch takes (KernelPath).
struct VectorPathCondition {
    struct Aligned {
        int32_t buffer = -1; ///< buffer id
        int bytes = 16;
    };
    struct Multiple {
        compiler::Index value; ///< in the graph's size symbols
        int64_t of = 1;
    };
    std::vector<Aligned> aligned;
    std::vector<Multiple> multiples;

    void requireAligned(int32_t buffer, int bytes);
    void requireMultiple(const compiler::Index& value, int64_t of);
    /// `addresses` holds each buffer's device address by buffer id, `symbols` the size symbols'
    /// values by symbol number.
    bool holds(std::span<const uint64_t> addresses, std::span<const int64_t> symbols) const;
};

/// Which of a kernel's paths an image holds. A kernel with a vector path also has a scalar one
/// for launches the vector path cannot take (a misaligned view, a size not a multiple of the
/// width). Each path compiles alone, with the define kernelPathDefine() names, so NVRTC
/// compiles only the path launches take (the vector path, unless one cannot): half the code.
/// The source without a define holds both paths, chosen on the device.
enum class KernelPath : uint8_t { Both, Vector, Scalar };
/// "-DKILN_VECTOR_PATH_ONLY", "-DKILN_SCALAR_PATH_ONLY", or "" for Both.
const char* kernelPathDefine(KernelPath path);
const char* kernelPathName(KernelPath path);

/// How a reduction kernel maps rows to threads (chosen by row length; see reduction_emitter.h).
enum class RowStrategy : uint8_t { None, WarpPerRow, BlockPerRow };
const char* rowStrategyName(RowStrategy s);

struct CudaKernel {
    std::string name;   ///< the scheduled kernel's name, also the entry point ("kiln_poi_...")
    std::string source; ///< CUDA C++, self-contained (no CUDA headers needed)
    std::vector<KernelArg> args;
    LaunchDescriptor launch;
    int vectorWidth = 1; ///< elements per 128-bit (or narrower) access along the innermost range
    int elementsPerThread = 1; ///< pointwise: elements each thread handles per pass
    RowStrategy rows = RowStrategy::None;
    /// Pattern-specific reductions the emitter used: "online_softmax", "welford".
    std::vector<std::string> fusedPatterns;
    bool uses64BitIndex = false;
    /// Set when the kernel has a vector path beside its scalar one (vectorWidth > 1).
    std::optional<VectorPathCondition> vectorPath;

    /// The path a launch with these buffer addresses and symbols takes.
    KernelPath pathFor(std::span<const uint64_t> addresses, std::span<const int64_t> symbols) const;
    /// The path compiled before any launch: the vector path where there is one.
    KernelPath firstPath() const { return vectorPath ? KernelPath::Vector : KernelPath::Both; }
};

} // namespace kiln::codegen::cuda
