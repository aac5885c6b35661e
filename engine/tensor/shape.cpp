// SPDX-License-Identifier: MIT
#include "tensor/shape.h"

#include "tensor/error.h"

namespace kiln::tensor {

DimVector broadcastShapes(IntList a, IntList b) {
    size_t rank = std::max(a.size(), b.size());
    DimVector out(rank);
    for (size_t i = 0; i < rank; ++i) {
        // Align from the right: position i counts from the last dimension.
        int64_t sa = i < a.size() ? a[a.size() - 1 - i] : 1;
        int64_t sb = i < b.size() ? b[b.size() - 1 - i] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            failRuntime("The size of tensor a (" + std::to_string(sa) +
                        ") must match the size of tensor b (" + std::to_string(sb) +
                        ") at non-singleton dimension " + std::to_string(rank - 1 - i));
        out[rank - 1 - i] = sa == 1 ? sb : sa;
    }
    return out;
}

DimVector broadcastStrides(const Tensor& t, IntList shape) {
    DimVector strides(shape.size(), 0);
    const auto& sizes = t.sizes();
    size_t lead = shape.size() - sizes.size();
    for (size_t i = 0; i < sizes.size(); ++i)
        strides[lead + i] = sizes[i] == 1 && shape[lead + i] != 1 ? 0 : t.strides()[i];
    return strides;
}

std::string shapeString(IntList sizes) {
    std::string s = "[";
    for (size_t i = 0; i < sizes.size(); ++i)
        s += (i ? ", " : "") + std::to_string(sizes[i]);
    return s + "]";
}

std::string torchSizeString(IntList sizes) {
    return "torch.Size(" + shapeString(sizes) + ")";
}

} // namespace kiln::tensor
