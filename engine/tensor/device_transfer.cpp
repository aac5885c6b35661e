// SPDX-License-Identifier: MIT
#include "tensor/device_transfer.h"

#include "support/assert.h"
#include "tensor/convert.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace kiln::tensor {

StorageSpan storageSpan(const Tensor& t) {
    StorageSpan span{t.offset(), t.offset()};
    if (t.numel() == 0) return span;
    int64_t last = t.offset();
    for (int64_t d = 0; d < t.dim(); ++d)
        last += (t.size(d) - 1) * t.stride(d);
    span.end = last + 1;
    return span;
}

bool isNonOverlappingAndDense(const Tensor& t) {
    std::vector<int64_t> order(static_cast<size_t>(t.dim()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return t.stride(a) < t.stride(b); });
    int64_t expected = 1;
    for (int64_t d : order) {
        if (t.size(d) == 1) continue;
        if (t.stride(d) != expected) return false;
        expected *= t.size(d);
    }
    return true;
}

Tensor copyToHost(const Tensor& t) {
    if (t.device().isCpu()) return t;
    const StorageSpan span = storageSpan(t);
    const int64_t item = itemSize(t.dtype());
    const int64_t elements[] = {span.size()};
    Tensor host = Tensor::empty(elements, t.dtype());
    const char* src = static_cast<const char*>(t.storage()->data()) + span.begin * item;
    t.storage()->allocator().copyToHost(host.rawData(), src, span.size() * item);
    return Tensor::view(host.storage(), t.offset() - span.begin, t.sizes(), t.strides(), t.dtype());
}

Tensor copyFromHost(const Tensor& t, Allocator& allocator) {
    KILN_ASSERT(t.device().isCpu(), "copyFromHost takes a host tensor");
    Tensor src = isNonOverlappingAndDense(t) ? t : contiguous(t);
    const StorageSpan span = storageSpan(src);
    const int64_t item = itemSize(src.dtype());
    auto storage = makeRef<Storage>(span.size() * item, allocator);
    if (span.size() > 0)
        allocator.copyFromHost(storage->data(), src.rawData() - (src.offset() - span.begin) * item,
                               span.size() * item);
    return Tensor::view(std::move(storage), src.offset() - span.begin, src.sizes(), src.strides(),
                        src.dtype());
}

namespace {

/// dst's elements are exactly its storage's bytes, each once.
bool coversStorage(const Tensor& t) {
    return t.offset() == 0 && isNonOverlappingAndDense(t) &&
           t.numel() * itemSize(t.dtype()) == t.storage()->bytes();
}

} // namespace

void overwriteWith(const Tensor& dst, const Tensor& src) {
    Storage& into = *dst.storage();
    const Storage& from = *src.storage();
    if (!dst.device().isCpu() && dst.device() == src.device() && dst.dtype() == src.dtype() &&
        dst.sizes() == src.sizes() && dst.strides() == src.strides() && coversStorage(dst) &&
        src.offset() == 0 && from.bytes() == into.bytes() &&
        &from.allocator() == &into.allocator() && into.refCount() == 1 && from.refCount() == 1) {
        into.discardPendingFill();
        into.swapContents(*src.storage());
        return;
    }
    if (coversStorage(dst)) into.discardPendingFill();
    copyInto(dst, src);
}

void copyIntoThroughHost(const Tensor& dst, const Tensor& src) {
    Tensor host = copyToHost(dst);
    copyInto(host, copyToHost(src));
    if (dst.device().isCpu() || dst.numel() == 0) return;
    const StorageSpan span = storageSpan(dst);
    const int64_t item = itemSize(dst.dtype());
    char* to = static_cast<char*>(dst.storage()->data()) + span.begin * item;
    const char* from = host.rawData() - (host.offset() - (dst.offset() - span.begin)) * item;
    dst.storage()->allocator().copyFromHost(to, from, span.size() * item);
}

} // namespace kiln::tensor
