// SPDX-License-Identifier: MIT
#include "compiler/reshape_index.h"

#include <optional>

namespace kiln::compiler {

namespace {

/// Dims [oldBegin, oldEnd) of the source and [newBegin, newEnd) of the result hold the same
/// number of elements.
struct Group {
    size_t oldBegin, oldEnd, newBegin, newEnd;
};

std::optional<int64_t> constantOf(const Index& e) {
    int64_t value = 0;
    if (!isConstant(e, &value)) return std::nullopt;
    return value;
}

/// The groups from the innermost dims out; nullopt where sizes that are not constants differ
/// (no grouping can be proven: the caller uses one group of everything).
std::optional<std::vector<Group>> groupsOf(const std::vector<Index>& oldSizes,
                                           const std::vector<Index>& newSizes) {
    std::vector<Group> groups;
    size_t i = oldSizes.size(), j = newSizes.size();
    while (i > 0 && j > 0) {
        Group g{0, i, 0, j};
        --i, --j;
        if (!equal(oldSizes[i], newSizes[j])) {
            std::optional<int64_t> po = constantOf(oldSizes[i]), pn = constantOf(newSizes[j]);
            if (!po || !pn) return std::nullopt;
            while (*po != *pn) {
                const std::vector<Index>& sizes = *po < *pn ? oldSizes : newSizes;
                size_t& at = *po < *pn ? i : j;
                std::optional<int64_t>& grows = *po < *pn ? po : pn;
                if (at == 0) return std::nullopt;
                std::optional<int64_t> next = constantOf(sizes[--at]);
                if (!next) return std::nullopt;
                *grows *= *next;
            }
        }
        g.oldBegin = i;
        g.newBegin = j;
        groups.push_back(g);
    }
    // What is left on either side holds one element (size-1 dims): the outermost group takes it.
    if (!groups.empty()) {
        groups.back().oldBegin = 0;
        groups.back().newBegin = 0;
    }
    return groups;
}

/// One group: its flat index over the result's dims, split over the source's.
void mapGroup(const Group& g, const std::vector<Index>& oldSizes,
              const std::vector<Index>& newSizes, const std::vector<Index>& index,
              std::vector<Index>& source) {
    std::vector<size_t> olds, news;
    for (size_t d = g.oldBegin; d < g.oldEnd; ++d)
        if (!isOne(oldSizes[d])) olds.push_back(d);
    for (size_t d = g.newBegin; d < g.newEnd; ++d)
        if (!isOne(newSizes[d])) news.push_back(d);
    if (olds.size() == 1 && news.size() == 1) {
        source[olds[0]] = index[news[0]];
        return;
    }
    Index flat = constant(0), stride = constant(1);
    for (size_t k = news.size(); k-- > 0;) {
        flat = flat + index[news[k]] * stride;
        stride = stride * newSizes[news[k]];
    }
    stride = constant(1);
    for (size_t k = olds.size(); k-- > 0;) {
        Index quotient = floorDiv(flat, stride);
        // The outermost dim of the group needs no modulo: the flat index stays below the
        // group's element count.
        source[olds[k]] = k == 0 ? quotient : modulo(quotient, oldSizes[olds[k]]);
        stride = stride * oldSizes[olds[k]];
    }
}

} // namespace

std::vector<Index> reshapeSourceIndex(const std::vector<Index>& oldSizes,
                                      const std::vector<Index>& newSizes,
                                      const std::vector<Index>& index) {
    std::vector<Index> source(oldSizes.size(), constant(0));
    std::optional<std::vector<Group>> groups = groupsOf(oldSizes, newSizes);
    if (!groups || groups->empty())
        groups = std::vector<Group>{{0, oldSizes.size(), 0, newSizes.size()}};
    for (const Group& g : *groups)
        mapGroup(g, oldSizes, newSizes, index, source);
    return source;
}

} // namespace kiln::compiler
