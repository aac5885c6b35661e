// SPDX-License-Identifier: MIT
// sort and topk along one dimension. Both are stable: equal keys keep their original order, so
// results are deterministic (torch's topk leaves the order of ties unspecified). NaN compares
// greater than every number, as in torch: last in an ascending sort, first in a descending one.
#include "tensor/autograd.h"
#include "tensor/error.h"
#include "tensor/ops.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace kiln::tensor {

namespace {

/// Calls fn(inOffset, outOffset) with the element offsets of the start of every line along
/// `dim`, for an input and an output laid out with the given strides.
template <typename Fn>
void forEachLine(IntList sizes, int64_t dim, IntList inStrides, IntList outStrides, Fn&& fn) {
    DimVector counter(sizes.size(), 0);
    int64_t lines = 1;
    for (size_t d = 0; d < sizes.size(); ++d)
        lines *= static_cast<int64_t>(d) == dim ? 1 : sizes[d];
    int64_t in = 0, out = 0;
    for (int64_t line = 0; line < lines; ++line) {
        fn(in, out);
        for (size_t d = sizes.size(); d-- > 0;) {
            if (static_cast<int64_t>(d) == dim) continue;
            in += inStrides[d];
            out += outStrides[d];
            if (++counter[d] < sizes[d]) break;
            in -= inStrides[d] * sizes[d];
            out -= outStrides[d] * sizes[d];
            counter[d] = 0;
        }
    }
}

template <typename C>
bool isNan(C v) {
    if constexpr (std::is_floating_point_v<C>)
        return std::isnan(v);
    else
        return false;
}

/// Orders one line: (key, index) pairs sorted by key with the index as tie-break (so the
/// result is the stable order), NaNs kept apart and placed where torch puts them.
template <typename C>
class LineSorter {
public:
    /// Writes the positions of the first `k` elements of the sorted line to `order`.
    void select(const std::vector<C>& keys, int64_t k, bool descending,
                std::vector<int64_t>& order) {
        m_numbers.clear();
        m_nans.clear();
        for (size_t i = 0; i < keys.size(); ++i) {
            if (isNan(keys[i]))
                m_nans.push_back(static_cast<int64_t>(i));
            else
                m_numbers.push_back({keys[i], static_cast<int64_t>(i)});
        }
        order.clear();
        if (descending) // NaN is the largest value: first when descending, last when ascending
            takeNans(k, order);
        takeNumbers(k - static_cast<int64_t>(order.size()), descending, order);
        if (!descending) takeNans(k - static_cast<int64_t>(order.size()), order);
    }

private:
    void takeNans(int64_t count, std::vector<int64_t>& order) {
        count = std::min<int64_t>(count, static_cast<int64_t>(m_nans.size()));
        order.insert(order.end(), m_nans.begin(), m_nans.begin() + count);
    }

    void takeNumbers(int64_t count, bool descending, std::vector<int64_t>& order) {
        count = std::min<int64_t>(count, static_cast<int64_t>(m_numbers.size()));
        auto asc = [](const Entry& x, const Entry& y) {
            return x.first < y.first || (x.first == y.first && x.second < y.second);
        };
        auto desc = [](const Entry& x, const Entry& y) {
            return x.first > y.first || (x.first == y.first && x.second < y.second);
        };
        auto middle = m_numbers.begin() + count;
        if (descending)
            sortPrefix(middle, desc);
        else
            sortPrefix(middle, asc);
        for (auto it = m_numbers.begin(); it != middle; ++it)
            order.push_back(it->second);
    }

    /// Sorts the entries before `middle` (all of them when it is the end).
    template <typename Less>
    void sortPrefix(typename std::vector<std::pair<C, int64_t>>::iterator middle, Less less) {
        if (middle == m_numbers.end())
            std::sort(m_numbers.begin(), middle, less);
        else
            std::partial_sort(m_numbers.begin(), middle, m_numbers.end(), less);
    }

    using Entry = std::pair<C, int64_t>;
    std::vector<Entry> m_numbers;
    std::vector<int64_t> m_nans;
};

/// Sorts (or selects the first `k` of) every line of `a` along `dim` into `values`/`indices`,
/// which have `a`'s shape except `k` along `dim`.
void sortLines(const Tensor& a, int64_t dim, int64_t k, bool descending, const Tensor& values,
               const Tensor& indices) {
    const int64_t n = a.sizes()[dim];
    const int64_t inStep = a.strides()[dim];
    const int64_t outStep = values.strides()[dim];
    dispatchDType(a.dtype(), [&]<DType D>() {
        using T = CType<D>;
        using C = ComputeType<T>;
        std::vector<C> keys(static_cast<size_t>(n));
        std::vector<int64_t> order;
        LineSorter<C> sorter;
        const T* src = a.data<T>();
        T* outValues = values.data<T>();
        int64_t* outIndices = indices.data<int64_t>();
        forEachLine(a.sizes(), dim, a.strides(), values.strides(), [&](int64_t in, int64_t out) {
            for (int64_t i = 0; i < n; ++i)
                keys[i] = static_cast<C>(src[in + i * inStep]);
            sorter.select(keys, k, descending, order);
            for (int64_t i = 0; i < k; ++i) {
                outValues[out + i * outStep] = src[in + order[i] * inStep];
                outIndices[out + i * outStep] = order[i];
            }
        });
    });
}

/// A 0-dim tensor sorts as a one-element line.
Tensor asLine(const Tensor& a) {
    if (a.dim() > 0) return a;
    return Tensor::view(a.storage(), a.offset(), DimVector{1}, DimVector{1}, a.dtype());
}

std::pair<Tensor, Tensor> selectSorted(const Tensor& a, int64_t dim, int64_t k, bool descending,
                                       std::string_view gradFn) {
    Tensor line = asLine(a);
    DimVector sizes = line.sizes();
    sizes[dim] = k;
    Tensor values = Tensor::empty(sizes, a.dtype());
    Tensor indices = Tensor::empty(sizes, DType::Int64);
    if (values.numel() > 0) sortLines(line, dim, k, descending, values, indices);
    if (a.dim() == 0 && k == 1) {
        values = Tensor::view(values.storage(), 0, {}, {}, a.dtype());
        indices = Tensor::view(indices.storage(), 0, {}, {}, DType::Int64);
    }
    recordGradFn(values, gradFn, {&a});
    // The values' gradient goes back to the positions they were taken from.
    attachIndexedExtremumDerivative(values, a, indices, dim, true);
    return {values, indices};
}

} // namespace

std::pair<Tensor, Tensor> sort(const Tensor& a, int64_t dim, bool descending) {
    int64_t d = wrapDim(dim, a.dim());
    int64_t size = a.dim() == 0 ? 1 : a.sizes()[d];
    return selectSorted(a, d, size, descending, "SortBackward0");
}

std::pair<Tensor, Tensor> topk(const Tensor& a, int64_t k, int64_t dim, bool largest, bool sorted) {
    int64_t d = wrapDim(dim, a.dim());
    int64_t size = a.dim() == 0 ? 1 : a.sizes()[d];
    if (k < 0 || k > size) failRuntime("selected index k out of range");
    // Unsorted output may come in any order in torch; sorted order is one valid answer.
    (void)sorted;
    return selectSorted(a, d, k, largest, "TopkBackward0");
}

} // namespace kiln::tensor
