// SPDX-License-Identifier: MIT
/// \file
/// The slice of the CUDA driver API's C ABI that Kiln calls, declared here so the runtime
/// builds without the CUDA toolkit (it is optional at build time, DESIGN §8) and never links
/// libcuda: the functions are looked up with dlsym (cuda_driver.h). Types and numbers are
/// those of cuda.h (CUDA 13); tst_cuda_driver checks them against cuda.h where it is installed.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kiln::runtime::cu {

using Result = int;                   ///< CUresult
using Device = int;                   ///< CUdevice
using DevicePtr = unsigned long long; ///< CUdeviceptr (CUdeviceptr_v2)
struct CtxSt;
struct StreamSt;
struct EventSt;
struct ModSt;
struct FuncSt;
using Context = CtxSt*;   ///< CUcontext
using Stream = StreamSt*; ///< CUstream; nullptr is the legacy default stream
using Event = EventSt*;   ///< CUevent
using Module = ModSt*;    ///< CUmodule
using Function = FuncSt*; ///< CUfunction

// CUresult values Kiln tells apart.
inline constexpr Result kSuccess = 0;
inline constexpr Result kErrorOutOfMemory = 2;
inline constexpr Result kErrorNotInitialized = 3;
inline constexpr Result kErrorStubLibrary = 34;
inline constexpr Result kErrorNoDevice = 100;
inline constexpr Result kErrorNotReady = 600;

// CUdevice_attribute values.
inline constexpr int kAttrMultiprocessorCount = 16;
inline constexpr int kAttrComputeCapabilityMajor = 75;
inline constexpr int kAttrComputeCapabilityMinor = 76;

// CUfunction_attribute values.
inline constexpr int kFuncAttrMaxDynamicSharedBytes = 8;

// Flags.
inline constexpr unsigned kEventDisableTiming = 0x2; ///< CU_EVENT_DISABLE_TIMING
inline constexpr unsigned kStreamNonBlocking = 0x1;  ///< CU_STREAM_NON_BLOCKING

/// The CUDA version this ABI description follows (cuda.h's CUDA_VERSION); a driver reporting
/// less through cuDriverGetVersion cannot load the sm_90 cubins NVRTC 13 produces.
inline constexpr int kRequiredDriverVersion = 13000;

} // namespace kiln::runtime::cu
