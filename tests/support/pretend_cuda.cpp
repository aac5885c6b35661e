// SPDX-License-Identifier: MIT
#include "pretend_cuda.h"

#include "lang/objects.h"
#include "tensor/device_transfer.h"

#include <cstdlib>
#include <cstring>

namespace kiln::testing {

void* PretendCudaAllocator::allocate(int64_t bytes) {
    return bytes ? std::malloc(size_t(bytes)) : nullptr;
}

void PretendCudaAllocator::deallocate(void* p, int64_t) {
    std::free(p);
}

void PretendCudaAllocator::copyToHost(void* dst, const void* src, int64_t bytes) const {
    ++copiesToHost;
    std::memcpy(dst, src, size_t(bytes));
}

void PretendCudaAllocator::copyFromHost(void* dst, const void* src, int64_t bytes) const {
    std::memcpy(dst, src, size_t(bytes));
}

PretendCudaAllocator& pretendCuda() {
    static PretendCudaAllocator allocator;
    return allocator;
}

namespace {

lang::Value toPretendDevice(lang::Interpreter&, const lang::CallArgs& args, void*) {
    return lang::Value(tensor::copyFromHost(args.positional[0].asTensor(), pretendCuda()));
}

} // namespace

void installPretendDevice(TorchSnippets& s) {
    s.interp.registerNativeModule("pretend", [](lang::Interpreter& i, lang::ModuleObject& m) {
        i.defineNative(m.globals, "cuda", toPretendDevice);
    });
}

} // namespace kiln::testing
