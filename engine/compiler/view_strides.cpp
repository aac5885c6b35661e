// SPDX-License-Identifier: MIT
#include "compiler/view_strides.h"

namespace kiln::compiler {

std::optional<std::vector<Index>> viewStrides(const std::vector<Index>& oldSizes,
                                              const std::vector<Index>& oldStrides,
                                              const std::vector<Index>& newSizes) {
    auto values = [](const std::vector<Index>& e) -> std::optional<std::vector<int64_t>> {
        std::vector<int64_t> out(e.size());
        for (size_t i = 0; i < e.size(); ++i)
            if (!isConstant(e[i], &out[i])) return std::nullopt;
        return out;
    };
    auto sizes = values(oldSizes), strides = values(oldStrides), view = values(newSizes);
    if (!sizes || !strides || !view || sizes->empty()) return std::nullopt;
    for (int64_t s : *sizes)
        if (s == 0) return std::nullopt;
    std::vector<int64_t> out(view->size());
    int64_t viewDim = static_cast<int64_t>(view->size()) - 1;
    int64_t chunkStride = strides->back(), tensorNumel = 1, viewNumel = 1;
    for (int64_t d = static_cast<int64_t>(sizes->size()) - 1; d >= 0; --d) {
        tensorNumel *= (*sizes)[static_cast<size_t>(d)];
        bool chunkEnds =
            d == 0 || ((*sizes)[static_cast<size_t>(d - 1)] != 1 &&
                       (*strides)[static_cast<size_t>(d - 1)] != tensorNumel * chunkStride);
        if (!chunkEnds) continue;
        while (viewDim >= 0 &&
               (viewNumel < tensorNumel || (*view)[static_cast<size_t>(viewDim)] == 1)) {
            out[static_cast<size_t>(viewDim)] = viewNumel * chunkStride;
            viewNumel *= (*view)[static_cast<size_t>(viewDim)];
            --viewDim;
        }
        if (viewNumel != tensorNumel) return std::nullopt;
        if (d > 0) {
            chunkStride = (*strides)[static_cast<size_t>(d - 1)];
            tensorNumel = viewNumel = 1;
        }
    }
    if (viewDim != -1) return std::nullopt;
    std::vector<Index> result;
    for (int64_t s : out)
        result.push_back(constant(s));
    return result;
}

} // namespace kiln::compiler
