// SPDX-License-Identifier: MIT
#include "support/matmul_precision.h"

#include <atomic>

namespace kiln {

namespace {
std::atomic<Float32MatmulPrecision> g_precision{Float32MatmulPrecision::Highest};
}

Float32MatmulPrecision float32MatmulPrecision() {
    return g_precision.load(std::memory_order_relaxed);
}

void setFloat32MatmulPrecision(Float32MatmulPrecision precision) {
    g_precision.store(precision, std::memory_order_relaxed);
}

const char* float32MatmulPrecisionName(Float32MatmulPrecision precision) {
    switch (precision) {
    case Float32MatmulPrecision::Highest:
        return "highest";
    case Float32MatmulPrecision::High:
        return "high";
    case Float32MatmulPrecision::Medium:
        return "medium";
    }
    return "highest";
}

bool allowTf32Matmul() {
    return float32MatmulPrecision() != Float32MatmulPrecision::Highest;
}

} // namespace kiln
