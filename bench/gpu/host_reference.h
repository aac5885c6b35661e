// SPDX-License-Identifier: MIT
/// \file
/// Host side of the device check: tensors as bytes, fresh random inputs, references computed in
/// double on all cores, and the comparison (relative error, elements the kernel never wrote).
#pragma once

#include "tensor/dtype.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <thread>
#include <vector>

namespace kiln::bench::gpu {

struct HostTensor {
    tensor::DType dtype = tensor::DType::Float32;
    std::vector<uint8_t> bytes;

    size_t count() const { return bytes.size() / static_cast<size_t>(tensor::itemSize(dtype)); }
    double at(size_t i) const {
        switch (dtype) {
        case tensor::DType::BFloat16: {
            uint16_t h;
            std::memcpy(&h, bytes.data() + 2 * i, 2);
            uint32_t w = uint32_t(h) << 16;
            float f;
            std::memcpy(&f, &w, 4);
            return f;
        }
        case tensor::DType::Int64: {
            int64_t v;
            std::memcpy(&v, bytes.data() + 8 * i, 8);
            return static_cast<double>(v);
        }
        default: {
            float f;
            std::memcpy(&f, bytes.data() + 4 * i, 4);
            return f;
        }
        }
    }
    /// The element's raw bits are the 0xff poison the device check fills outputs with.
    bool poisoned(size_t i) const {
        size_t n = static_cast<size_t>(tensor::itemSize(dtype));
        for (size_t b = 0; b < n; ++b)
            if (bytes[i * n + b] != 0xff) return false;
        return true;
    }
};

/// Reference results are doubles; the comparison reads the device's result in its dtype.
struct Reference {
    std::vector<double> values;
};

inline void parallelFor(size_t n, const std::function<void(size_t, size_t)>& body) {
    unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    size_t chunk = (n + threads - 1) / threads;
    for (unsigned t = 0; t < threads; ++t) {
        size_t b = t * chunk, e = std::min(n, b + chunk);
        if (b < e) pool.emplace_back(body, b, e);
    }
    for (std::thread& t : pool)
        t.join();
}

inline HostTensor randomTensor(size_t n, tensor::DType t, uint64_t seed, double scale = 1.0,
                               double shift = 0.0) {
    HostTensor h;
    h.dtype = t;
    h.bytes.resize(n * static_cast<size_t>(tensor::itemSize(t)));
    parallelFor(n, [&](size_t b, size_t e) {
        std::mt19937_64 rng(seed * 1000003 + b);
        std::normal_distribution<float> normal(0.f, 1.f);
        for (size_t i = b; i < e; ++i) {
            float f = static_cast<float>(normal(rng) * scale + shift);
            if (t == tensor::DType::BFloat16) {
                uint32_t w;
                std::memcpy(&w, &f, 4);
                w += ((w >> 16) & 1u) + 0x7fffu;
                uint16_t hbits = static_cast<uint16_t>(w >> 16);
                std::memcpy(h.bytes.data() + 2 * i, &hbits, 2);
            } else {
                std::memcpy(h.bytes.data() + 4 * i, &f, 4);
            }
        }
    });
    return h;
}

struct Comparison {
    double relativeError = 0;
    size_t unwritten = 0;
};

inline Comparison compare(const HostTensor& out, const Reference& ref) {
    Comparison c;
    double num = 0, den = 0;
    size_t n = std::min(out.count(), ref.values.size());
    for (size_t i = 0; i < n; ++i) {
        if (out.poisoned(i)) {
            ++c.unwritten;
            continue;
        }
        double d = out.at(i) - ref.values[i];
        num += d * d;
        den += ref.values[i] * ref.values[i];
    }
    c.relativeError = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
    if (std::isnan(c.relativeError)) c.relativeError = INFINITY;
    return c;
}

using ReferenceFn =
    std::function<Reference(const std::vector<HostTensor>&, const std::vector<long long>&)>;

inline Reference sinCosRef(const std::vector<HostTensor>& in, const std::vector<long long>&) {
    Reference r;
    r.values.resize(in[0].count());
    parallelFor(r.values.size(), [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i)
            r.values[i] = std::sin(in[0].at(i)) + std::cos(in[0].at(i));
    });
    return r;
}

/// GELU (erf) of every element.
inline Reference geluRef(const std::vector<HostTensor>& in, const std::vector<long long>&) {
    Reference r;
    r.values.resize(in[0].count());
    parallelFor(r.values.size(), [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) {
            double x = in[0].at(i);
            r.values[i] = 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
        }
    });
    return r;
}

/// Row-wise reference over rows x cols: `row` maps one input row to its outputs.
inline Reference rowsRef(const HostTensor& x, size_t rows, size_t cols, size_t outPerRow,
                         const std::function<void(const double*, double*)>& row) {
    Reference r;
    r.values.resize(rows * outPerRow);
    parallelFor(rows, [&](size_t b, size_t e) {
        std::vector<double> v(cols);
        for (size_t i = b; i < e; ++i) {
            for (size_t j = 0; j < cols; ++j)
                v[j] = x.at(i * cols + j);
            row(v.data(), r.values.data() + i * outPerRow);
        }
    });
    return r;
}

inline void softmaxRow(const double* v, double* out, size_t n) {
    double m = -INFINITY, s = 0;
    for (size_t j = 0; j < n; ++j)
        m = std::max(m, v[j]);
    for (size_t j = 0; j < n; ++j)
        s += std::exp(v[j] - m);
    for (size_t j = 0; j < n; ++j)
        out[j] = std::exp(v[j] - m) / s;
}

inline void geluLayerNormRow(const double* v, double* out, size_t n, const HostTensor& w,
                             const HostTensor& b) {
    double mean = 0, m2 = 0;
    for (size_t j = 0; j < n; ++j)
        mean += v[j];
    mean /= static_cast<double>(n);
    for (size_t j = 0; j < n; ++j)
        m2 += (v[j] - mean) * (v[j] - mean);
    double inv = 1.0 / std::sqrt(m2 / static_cast<double>(n) + 1e-5);
    for (size_t j = 0; j < n; ++j) {
        double y = (v[j] - mean) * inv * w.at(j) + b.at(j);
        out[j] = 0.5 * y * (1.0 + std::erf(y / std::sqrt(2.0)));
    }
}

} // namespace kiln::bench::gpu

namespace kiln::bench::gpu {

/// Philox4x32-10 uniform float, as engine/codegen/cpu/random_ir.h computes it.
inline float philoxUniform(uint64_t seed, uint64_t counter, uint32_t stream) {
    uint32_t c[4] = {uint32_t(counter), uint32_t(counter >> 32), stream, 0};
    uint32_t k0 = uint32_t(seed), k1 = uint32_t(seed >> 32);
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        uint64_t p0 = uint64_t(0xD2511F53u) * c[0], p1 = uint64_t(0xCD9E8D57u) * c[2];
        uint32_t n0 = uint32_t(p1 >> 32) ^ c[1] ^ k0, n2 = uint32_t(p0 >> 32) ^ c[3] ^ k1;
        c[0] = n0, c[1] = uint32_t(p1), c[2] = n2, c[3] = uint32_t(p0);
    }
    return static_cast<float>(c[0] >> 8) * 0x1.0p-24f;
}

} // namespace kiln::bench::gpu
