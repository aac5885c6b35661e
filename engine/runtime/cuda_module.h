// SPDX-License-Identifier: MIT
/// \file
/// Loading compiled device code and launching it: the interface codegen/cuda builds on. A
/// module is loaded from cubin bytes (NVRTC's output for the device's architecture; PTX works
/// too but costs a driver JIT compile, about 100 ms), a kernel is looked up by its
/// (extern "C") name, and launched with a grid, a block, dynamic shared memory and the
/// addresses of its arguments on a stream.
#pragma once

#include "runtime/cuda_stream.h"

#include <memory>
#include <span>
#include <string>

namespace kiln::runtime {

struct Dim3 {
    unsigned x = 1, y = 1, z = 1;
};

class CudaKernel {
public:
    CudaKernel(const CudaContext& context, cu::Function function, std::string name)
        : m_context(&context)
        , m_function(function)
        , m_name(std::move(name)) {}

    const std::string& name() const { return m_name; }
    cu::Function handle() const { return m_function; }
    /// Registers per thread, static shared bytes, ... (a CUfunction_attribute).
    Expected<int> attribute(int attribute) const;
    /// Allows more than 48 KiB of dynamic shared memory (Hopper allows up to 227 KiB).
    Status setMaxDynamicSharedMemory(int bytes) const;
    /// Queues the kernel on `stream`. `args` holds one pointer per kernel parameter, pointing
    /// at the parameter's value (a DevicePtr for a pointer parameter), as cuLaunchKernel wants.
    Status launch(Dim3 grid, Dim3 block, unsigned sharedBytes, const CudaStream& stream,
                  std::span<void*> args) const;

private:
    const CudaContext* m_context;
    cu::Function m_function;
    std::string m_name;
};

class CudaModule {
public:
    /// Loads a cubin (or NUL-terminated PTX) image on the context's device.
    static Expected<std::unique_ptr<CudaModule>> load(const CudaContext& context,
                                                      std::span<const std::byte> image);
    ~CudaModule();
    CudaModule(const CudaModule&) = delete;
    CudaModule& operator=(const CudaModule&) = delete;

    /// The kernel `name`; valid while the module lives.
    Expected<CudaKernel> kernel(const std::string& name) const;

private:
    CudaModule(const CudaContext& context, cu::Module module)
        : m_context(context)
        , m_module(module) {}

    const CudaContext& m_context;
    cu::Module m_module;
};

} // namespace kiln::runtime
