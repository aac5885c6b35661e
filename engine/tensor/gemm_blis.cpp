// SPDX-License-Identifier: MIT
// float64 matrix products through BLIS's typed API, which takes row and column strides, so
// strided operands need no copies. BLIS picks its kernels from the CPU at load time
// (bli_arch_query_id) and threads with OpenMP, on the same team as Kiln's loops.
#include "support/parallel.h"
#include "tensor/gemm_backend.h"

#include <blis.h>
#include <mutex>

namespace kiln::tensor::detail {

namespace {

void configureBlis() {
    static std::once_flag once;
    std::call_once(once, [] { bli_thread_set_num_threads(parallelThreads()); });
    configureThreadsForCaller();
}

} // namespace

void blisGemm(const Tensor& a, const Tensor& b, const Tensor& out, double alpha, double beta) {
    configureBlis();
    const int64_t batch = out.sizes()[0], n = out.sizes()[1], p = out.sizes()[2];
    const int64_t m = a.sizes()[2];
    const auto& sa = a.strides();
    const auto& sb = b.strides();
    for (int64_t i = 0; i < batch; ++i) {
        auto* pa = const_cast<double*>(a.data<double>() + i * sa[0]);
        auto* pb = const_cast<double*>(b.data<double>() + i * sb[0]);
        double* pc = out.data<double>() + i * n * p;
        bli_dgemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, n, p, m, &alpha, pa, sa[1], sa[2], pb,
                  sb[1], sb[2], &beta, pc, p, 1);
    }
}

std::string blisDescription() {
    return std::string("BLIS ") + bli_info_get_version_str() + " (" +
           bli_arch_string(bli_arch_query_id()) + ")";
}

} // namespace kiln::tensor::detail
