// SPDX-License-Identifier: MIT
#include "runtime/cuda_tensor.h"

#include "runtime/cuda_memory.h"
#include "tensor/device_transfer.h"
#include "tensor/error.h"

#include <limits>

namespace kiln::runtime {

namespace {

tensor::Allocator& allocatorOf(int device) {
    Expected<tensor::Allocator*> a = cudaTensorAllocator(device);
    if (!a) tensor::failRuntime(a.error().message);
    return **a;
}

int indexOf(tensor::Device d) {
    return d.index < 0 ? currentCudaDevice() : d.index;
}

} // namespace

int currentCudaDevice() {
    return 0;
}

tensor::Tensor emptyCuda(tensor::IntList sizes, tensor::DType dtype, int device) {
    tensor::Allocator& allocator = allocatorOf(device);
    int64_t n = tensor::checkedNumel(sizes);
    int64_t item = tensor::itemSize(dtype);
    if (n > std::numeric_limits<int64_t>::max() / item)
        tensor::fail(tensor::ErrorKind::OutOfMemoryError,
                     "CUDA out of memory. Tried to allocate more than " +
                         std::to_string(std::numeric_limits<int64_t>::max()) + " bytes.");
    auto storage = makeRef<tensor::Storage>(n * item, allocator);
    return tensor::Tensor::view(std::move(storage), 0, tensor::DimVector(sizes),
                                tensor::contiguousStrides(sizes), dtype);
}

tensor::Tensor toDevice(const tensor::Tensor& t, tensor::Device device) {
    tensor::Device from = t.device();
    if (device.isCpu()) return from.isCpu() ? t : tensor::copyToHost(t);
    device.index = indexOf(device);
    if (from == device) return t;
    // Between two devices the bytes go through the host: Kiln has no peer copies yet.
    tensor::Tensor host = from.isCpu() ? t : tensor::copyToHost(t);
    return tensor::copyFromHost(host, allocatorOf(device.index));
}

DevicePtr devicePointer(const tensor::Tensor& t) {
    KILN_ASSERT(t.device().isCuda(), "devicePointer of a tensor that is not on a CUDA device");
    return static_cast<DevicePtr>(reinterpret_cast<uintptr_t>(t.devicePointer()));
}

} // namespace kiln::runtime
