// SPDX-License-Identifier: MIT
#include "runtime/cuda_module.h"

namespace kiln::runtime {

Expected<int> CudaKernel::attribute(int attribute) const {
    if (Status s = m_context->makeCurrent(); !s) return s.error();
    int value = 0;
    const CudaDriver& d = m_context->driver();
    if (cu::Result rc = d.funcGetAttribute(&value, attribute, m_function); rc != cu::kSuccess)
        return cudaFailure(d, "cuFuncGetAttribute(" + m_name + ")", rc);
    return value;
}

Status CudaKernel::setMaxDynamicSharedMemory(int bytes) const {
    if (Status s = m_context->makeCurrent(); !s) return s;
    const CudaDriver& d = m_context->driver();
    return cudaCheck(d, "cuFuncSetAttribute(" + m_name + ")",
                     d.funcSetAttribute(m_function, cu::kFuncAttrMaxDynamicSharedBytes, bytes));
}

Status CudaKernel::launch(Dim3 grid, Dim3 block, unsigned sharedBytes, const CudaStream& stream,
                          std::span<void*> args) const {
    if (Status s = m_context->makeCurrent(); !s) return s;
    const CudaDriver& d = m_context->driver();
    return cudaCheck(d, "cuLaunchKernel(" + m_name + ")",
                     d.launchKernel(m_function, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                    sharedBytes, stream.handle(), args.data(), nullptr));
}

Expected<std::unique_ptr<CudaModule>> CudaModule::load(const CudaContext& context,
                                                       std::span<const std::byte> image) {
    if (image.empty()) return makeDiagnostic("CudaError", "cuModuleLoadData: empty image");
    if (Status s = context.makeCurrent(); !s) return s.error();
    cu::Module module = nullptr;
    const CudaDriver& d = context.driver();
    if (cu::Result rc = d.moduleLoadData(&module, image.data()); rc != cu::kSuccess)
        return cudaFailure(d, "cuModuleLoadData", rc);
    return std::unique_ptr<CudaModule>(new CudaModule(context, module));
}

CudaModule::~CudaModule() {
    if (m_context.makeCurrent()) m_context.driver().moduleUnload(m_module);
}

Expected<CudaKernel> CudaModule::kernel(const std::string& name) const {
    if (Status s = m_context.makeCurrent(); !s) return s.error();
    cu::Function function = nullptr;
    const CudaDriver& d = m_context.driver();
    if (cu::Result rc = d.moduleGetFunction(&function, m_module, name.c_str()); rc != cu::kSuccess)
        return cudaFailure(d, "cuModuleGetFunction(" + name + ")", rc);
    return CudaKernel(m_context, function, name);
}

} // namespace kiln::runtime
