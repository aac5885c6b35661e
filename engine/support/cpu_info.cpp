// SPDX-License-Identifier: MIT
#include "support/cpu_info.h"

#include <cpuid.h>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace kiln {

CpuIsa supportedIsa() {
    static const CpuIsa isa = [] {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
            return CpuIsa::Avx512;
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return CpuIsa::Avx2;
        return CpuIsa::Baseline;
    }();
    return isa;
}

CpuIsa activeIsa() {
    static const CpuIsa isa = [] {
        CpuIsa best = supportedIsa();
        const char* cap = std::getenv("KILN_CPU_ISA");
        if (!cap) return best;
        std::string_view c(cap);
        CpuIsa asked = c == "baseline" ? CpuIsa::Baseline
                       : c == "avx2"   ? CpuIsa::Avx2
                                       : CpuIsa::Avx512;
        return asked < best ? asked : best;
    }();
    return isa;
}

const char* isaName(CpuIsa isa) {
    switch (isa) {
    case CpuIsa::Baseline:
        return "baseline";
    case CpuIsa::Avx2:
        return "avx2";
    case CpuIsa::Avx512:
        return "avx512";
    }
    return "baseline";
}

std::string cpuModelName() {
    unsigned regs[12] = {};
    unsigned top = __get_cpuid_max(0x80000000u, nullptr);
    if (top < 0x80000004u) return "unknown x86-64 CPU";
    for (unsigned i = 0; i < 3; ++i)
        __get_cpuid(0x80000002u + i, &regs[i * 4], &regs[i * 4 + 1], &regs[i * 4 + 2],
                    &regs[i * 4 + 3]);
    char brand[49] = {};
    std::memcpy(brand, regs, 48);
    std::string name(brand);
    size_t first = name.find_first_not_of(' ');
    size_t last = name.find_last_not_of(' ');
    return first == std::string::npos ? "unknown x86-64 CPU" : name.substr(first, last - first + 1);
}

} // namespace kiln
