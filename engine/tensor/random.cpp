// SPDX-License-Identifier: MIT
// The generator and the random factories and fills. Elements are drawn in row-major order of
// the tensor's shape whatever its strides, so a seed gives the same values for a view and for
// a contiguous tensor.
#include "tensor/random.h"

#include "tensor/elementwise.h"
#include "tensor/error.h"
#include "tensor/iterate.h"
#include "tensor/ops.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

namespace kiln::tensor {

double Generator::normal() {
    if (m_hasSpareNormal) {
        m_hasSpareNormal = false;
        return m_spareNormal;
    }
    // Box-Muller on (0, 1] x [0, 1): 1 - uniform() never reaches 0, so the log is finite.
    const double radius = std::sqrt(-2.0 * std::log(1.0 - uniform()));
    const double angle = 2.0 * std::numbers::pi * uniform();
    m_spareNormal = radius * std::sin(angle);
    m_hasSpareNormal = true;
    return radius * std::cos(angle);
}

Generator& defaultGenerator() {
    static Generator generator;
    return generator;
}

namespace {

/// Writes draw<T>() (a number) into every element of `t`, in row-major order.
template <typename Draw>
void fillEach(const Tensor& t, Draw&& draw) {
    dispatchDType(t.dtype(), [&]<DType D>() {
        using T = CType<D>;
        auto g = makeLoopGeometry<1>(t.sizes(), {IntList(t.strides())}, {int64_t(sizeof(T))});
        forEachRun(g, {t.rawData()},
                   [&](std::array<char*, 1> p, std::array<int64_t, 1> s, int64_t n) {
                       for (int64_t i = 0; i < n; ++i)
                           *reinterpret_cast<T*>(p[0] + i * s[0]) =
                               castValue<T>(draw.template operator()<T>());
                   });
    });
}

/// Uniform in [0, 1) with as many random bits as T's significand, so that rounding to T can
/// never produce 1.
template <typename T>
double uniformFor(Generator& gen) {
    constexpr int bits = std::is_same_v<T, Half>       ? 11
                         : std::is_same_v<T, BFloat16> ? 8
                         : std::is_same_v<T, float>    ? 24
                                                       : 53;
    return static_cast<double>(gen.nextBits() >> (64 - bits)) * std::ldexp(1.0, -bits);
}

} // namespace

void uniformInPlace(const Tensor& a, double from, double to, Generator& gen) {
    if (!isFloating(a.dtype())) detail::failNotImplementedFor("check_uniform_bounds", a.dtype());
    if (from > to)
        failRuntime("uniform_ expects to return a [from, to) range, but found from=" +
                    detail::formatDouble(from) + " > to=" + detail::formatDouble(to));
    const double range = to - from;
    fillEach(a, [&]<typename T>() { return from + uniformFor<T>(gen) * range; });
}

void normalInPlace(const Tensor& a, double mean, double stddev, Generator& gen) {
    if (!isFloating(a.dtype())) detail::failNotImplementedFor("normal_kernel_cpu", a.dtype());
    if (stddev < 0)
        failRuntime("normal expects std >= 0.0, but found std " + detail::formatDouble(stddev));
    fillEach(a, [&]<typename T>() { return mean + stddev * gen.normal(); });
}

Tensor randn(IntList sizes, const TensorOptions& options, Generator& gen) {
    Tensor out = detail::allocateForFactory(sizes, options);
    normalInPlace(out, 0.0, 1.0, gen);
    return out;
}

Tensor rand(IntList sizes, const TensorOptions& options, Generator& gen) {
    Tensor out = detail::allocateForFactory(sizes, options);
    uniformInPlace(out, 0.0, 1.0, gen);
    return out;
}

Tensor randint(int64_t low, int64_t high, IntList sizes, const TensorOptions& options,
               Generator& gen) {
    if (low >= high)
        failRuntime("random_ expects 'from' to be less than 'to', but got from=" +
                    std::to_string(low) + " >= to=" + std::to_string(high));
    Tensor out = detail::allocateForFactory(sizes, options);
    const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
    fillEach(out, [&]<typename T>() {
        // The modulo bias is below 2^-64 * range: invisible at any realistic range.
        return static_cast<int64_t>(static_cast<uint64_t>(low) + gen.nextBits() % range);
    });
    return out;
}

Tensor randperm(int64_t n, const TensorOptions& options, Generator& gen) {
    Tensor out = detail::allocateForFactory(DimVector{n}, options);
    std::vector<int64_t> perm(static_cast<size_t>(n));
    std::iota(perm.begin(), perm.end(), int64_t(0));
    for (int64_t i = n - 1; i > 0; --i) // Fisher-Yates
        std::swap(perm[i], perm[gen.nextBits() % static_cast<uint64_t>(i + 1)]);
    size_t next = 0;
    fillEach(out, [&]<typename T>() { return perm[next++]; });
    return out;
}

namespace {

void checkMultinomial(const Tensor& probs, int64_t numSamples, bool replacement) {
    if (probs.dim() != 1 && probs.dim() != 2) failRuntime("prob_dist must be 1 or 2 dim");
    if (!isFloating(probs.dtype()))
        failRuntime("multinomial only supports floating-point dtypes for input, got: " +
                    std::string(dtypeLegacyName(probs.dtype())));
    if (numSamples <= 0) failRuntime("cannot sample n_sample <= 0 samples");
    if (!replacement && numSamples > probs.size(-1))
        failRuntime("cannot sample n_sample > prob_dist.size(-1) samples without replacement");
}

/// The weights of one row, validated as PyTorch does.
std::vector<double> rowWeights(const double* row, int64_t n) {
    std::vector<double> weights(row, row + n);
    double total = 0.0;
    for (double w : weights) {
        if (!(w >= 0) || std::isinf(w))
            failRuntime("probability tensor contains either `inf`, `nan` or element < 0");
        total += w;
    }
    if (!(total > 0)) failRuntime("invalid multinomial distribution (sum of probabilities <= 0)");
    return weights;
}

/// One category drawn by inverting the cumulative weights; `total` is their sum (> 0).
int64_t drawCategory(const std::vector<double>& weights, double total, Generator& gen) {
    const double target = gen.uniform() * total;
    double running = 0.0;
    int64_t last = 0;
    for (size_t i = 0; i < weights.size(); ++i) {
        if (weights[i] <= 0) continue;
        running += weights[i];
        last = static_cast<int64_t>(i);
        if (target < running) return last;
    }
    return last; // target rounded up to the total: the last category that can be drawn
}

/// Without replacement a drawn category leaves the pool; once only zero weights remain they
/// are taken in index order (PyTorch also returns them last).
void sampleRow(std::vector<double> weights, int64_t numSamples, bool replacement, Generator& gen,
               int64_t* out) {
    std::vector<char> drawn(weights.size(), 0);
    double total = std::accumulate(weights.begin(), weights.end(), 0.0);
    for (int64_t k = 0; k < numSamples; ++k) {
        int64_t chosen = 0;
        if (total > 0) {
            chosen = drawCategory(weights, total, gen);
        } else {
            while (drawn[chosen])
                ++chosen;
        }
        out[k] = chosen;
        if (!replacement) {
            weights[chosen] = 0.0;
            drawn[chosen] = 1;
            total = std::accumulate(weights.begin(), weights.end(), 0.0);
        }
    }
}

} // namespace

Tensor multinomial(const Tensor& probs, int64_t numSamples, bool replacement, Generator& gen) {
    checkMultinomial(probs, numSamples, replacement);
    Tensor p = contiguous(toDType(probs, DType::Float64));
    const int64_t rows = probs.dim() == 2 ? probs.size(0) : 1;
    const int64_t categories = probs.size(-1);
    Tensor out = Tensor::empty(
        probs.dim() == 2 ? DimVector{rows, numSamples} : DimVector{numSamples}, DType::Int64);
    for (int64_t r = 0; r < rows; ++r)
        sampleRow(rowWeights(p.data<double>() + r * categories, categories), numSamples,
                  replacement, gen, out.data<int64_t>() + r * numSamples);
    return out;
}

} // namespace kiln::tensor
