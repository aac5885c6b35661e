// SPDX-License-Identifier: MIT
/// \file
/// From CUPTI's activity records to Kiln's kernel launches. Every launch of ours is tagged
/// with an external correlation id; under one tag CUPTI may report several kernels (cuBLASLt's
/// split-k reduction) and memory copies (a product whose bias is copied into its output
/// first). The launch spans all of them, with the geometry of its first kernel; a tag that
/// only copied memory is a launch with no grid or block.
#pragma once

#include "codegen/cuda/cupti.h"
#include "support/compiler_events.h"

#include <cstdint>
#include <map>
#include <vector>

namespace kiln::inductor {

struct GpuLaunchInfo {
    int64_t kernelId = 0;
    unsigned gridX = 1, gridY = 1, gridZ = 1;
    unsigned blockX = 1, blockY = 1, blockZ = 1;
    int registers = 0;
    int sharedBytes = 0; ///< static + dynamic per block
};

/// The launch event for `info` as Kiln launched it (the geometry it asked for).
KernelLaunchEvent launchEventFor(const GpuLaunchInfo& info);

/// One event per tag of `tagged` that has records, in the order of their first record;
/// records of other tags (eager ops, other libraries) are left out. `clockOffsetNs` turns
/// CUPTI's timestamps into the run's clock.
std::vector<KernelLaunchEvent> launchesFromActivity(const codegen::cuda::ActivityRecords& records,
                                                    const std::map<uint64_t, GpuLaunchInfo>& tagged,
                                                    int64_t clockOffsetNs);

} // namespace kiln::inductor
