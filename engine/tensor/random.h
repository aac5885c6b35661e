// SPDX-License-Identifier: MIT
/// \file
/// The random-number generator behind torch.manual_seed, randn, rand, dropout and nn.init.
/// A seeded generator gives the same stream on every run and machine; it does not reproduce
/// PyTorch's values.
#pragma once

#include <cstdint>
#include <random>

namespace kiln::tensor {

class Generator {
public:
    explicit Generator(uint64_t seed = 67280421310721ull) { manualSeed(seed); }

    void manualSeed(uint64_t seed) {
        m_seed = seed;
        m_engine.seed(seed);
        m_hasSpareNormal = false;
    }
    uint64_t initialSeed() const { return m_seed; }

    uint64_t nextBits() { return m_engine(); }
    /// Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(m_engine() >> 11) * 0x1.0p-53; }
    /// Standard normal (Box-Muller, the spare value kept for the next call).
    double normal();

private:
    std::mt19937_64 m_engine;
    uint64_t m_seed = 0;
    double m_spareNormal = 0.0;
    bool m_hasSpareNormal = false;
};

/// The process-wide default generator (torch.manual_seed seeds it).
Generator& defaultGenerator();

} // namespace kiln::tensor
