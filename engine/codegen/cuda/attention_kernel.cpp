// SPDX-License-Identifier: MIT
#include "codegen/cuda/attention_kernel.h"

namespace kiln::codegen::cuda {

namespace {

// Register layouts are PTX's for mma.m16n8k16 (g = lane / 4, t = lane % 4): an A fragment holds
// rows g and g + 8 at columns 2t, 2t + 1 and 2t + 8, 2t + 9; a B fragment column g at rows 2t,
// 2t + 1 (b0) and 2t + 8, 2t + 9 (b1); a C fragment rows g (c0, c1) and g + 8 (c2, c3) at
// columns 2t, 2t + 1. A score tile's C fragments for keys 16kk..16kk+15 are therefore exactly
// the A fragment of P for the second product: P never leaves registers.
constexpr const char* kBody = R"(
typedef unsigned short kiln_half_bits;

__device__ __forceinline__ unsigned kiln_smem_address(const void* p) {
    unsigned a;
    asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(a) : "l"(p));
    return a;
}
__device__ __forceinline__ void kiln_ldmatrix_x4(unsigned (&r)[4], const void* p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(kiln_smem_address(p)));
}
__device__ __forceinline__ void kiln_ldmatrix_x4_trans(unsigned (&r)[4], const void* p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(kiln_smem_address(p)));
}
__device__ __forceinline__ void kiln_mma(float (&c)[4], const unsigned (&a)[4], unsigned b0,
                                         unsigned b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32." KILN_MMA_TYPE "." KILN_MMA_TYPE
                 ".f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
/// Two floats rounded to the input type, `lo` in the low half (the lower column).
__device__ __forceinline__ unsigned kiln_pack(float lo, float hi) {
    unsigned r;
    asm("cvt.rn." KILN_MMA_TYPE "x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}
__device__ __forceinline__ float kiln_quad_max(float v) {
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 1));
    return fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 2));
}
__device__ __forceinline__ float kiln_quad_sum(float v) {
    v += __shfl_xor_sync(0xffffffffu, v, 1);
    return v + __shfl_xor_sync(0xffffffffu, v, 2);
}

constexpr int BM = 64, BN = 64, LDS = D + 8; // +8: ldmatrix rows fall in distinct banks

/// rows x D elements from `src` (row stride `stride`) into shared memory; rows at or past
/// `valid` are zeros.
__device__ __forceinline__ void kiln_stage(kiln_half_bits* dst, const kiln_half_bits* src,
                                           long long stride, long long valid) {
    for (int c = threadIdx.x; c < BM * D / 8; c += blockDim.x) {
        const int r = c / (D / 8), col = (c % (D / 8)) * 8;
        uint4 value = make_uint4(0u, 0u, 0u, 0u);
        if (r < valid) value = *reinterpret_cast<const uint4*>(src + (long long)r * stride + col);
        *reinterpret_cast<uint4*>(dst + r * LDS + col) = value;
    }
}

extern "C" __global__ void __launch_bounds__(128) KILN_NAME(
    const kiln_half_bits* __restrict__ q, const kiln_half_bits* __restrict__ k,
    const kiln_half_bits* __restrict__ v, kiln_half_bits* __restrict__ out, long long tq,
    long long tk, long long heads, long long qsb, long long qsh, long long qst, long long ksb,
    long long ksh, long long kst, long long vsb, long long vsh, long long vst,
    float scaleLog2) {
    __shared__ alignas(16) kiln_half_bits sK[BN * LDS]; // holds the query tile first

    __shared__ alignas(16) kiln_half_bits sV[BN * LDS];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    // Later query tiles have more keys to visit under a causal mask: start them first.
    const long long tile = CAUSAL ? (long long)gridDim.x - 1 - blockIdx.x : blockIdx.x;
    const long long bh = blockIdx.y, b = bh / heads, h = bh % heads;
    const long long q0 = tile * BM;
    q += b * qsb + h * qsh;
    k += b * ksb + h * ksh;
    v += b * vsb + h * vsh;
    out += bh * tq * D;

    kiln_stage(sK, q + q0 * qst, qst, tq - q0);
    __syncthreads();
    unsigned qf[D / 16][4];
#pragma unroll
    for (int ks = 0; ks < D / 16; ++ks)
        kiln_ldmatrix_x4(qf[ks], &sK[(warp * 16 + (lane & 15)) * LDS + ks * 16 + (lane >> 4) * 8]);

    const float negInf = __int_as_float(0xff800000);
    float rowMax[2] = {negInf, negInf}, rowSum[2] = {0.f, 0.f};
    float acc[D / 8][4];
#pragma unroll
    for (int dn = 0; dn < D / 8; ++dn)
        acc[dn][0] = acc[dn][1] = acc[dn][2] = acc[dn][3] = 0.f;
    const long long row0 = q0 + warp * 16 + g, row1 = row0 + 8;
    const long long keys = CAUSAL ? (q0 + BM < tk ? q0 + BM : tk) : tk;

    for (long long k0 = 0; k0 < keys; k0 += BN) {
        __syncthreads(); // the previous tile's (or the query tile's) readers are done
        kiln_stage(sK, k + k0 * kst, kst, tk - k0);
        kiln_stage(sV, v + k0 * vst, vst, tk - k0);
        __syncthreads();

        float s[BN / 8][4];
#pragma unroll
        for (int nt = 0; nt < BN / 8; ++nt)
            s[nt][0] = s[nt][1] = s[nt][2] = s[nt][3] = 0.f;
#pragma unroll
        for (int ks = 0; ks < D / 16; ++ks) {
#pragma unroll
            for (int nt = 0; nt < BN / 8; nt += 2) {
                unsigned kb[4];
                kiln_ldmatrix_x4(kb, &sK[(nt * 8 + (lane >> 4) * 8 + (lane & 7)) * LDS + ks * 16 +
                                         ((lane >> 3) & 1) * 8]);
                kiln_mma(s[nt], qf[ks], kb[0], kb[1]);
                kiln_mma(s[nt + 1], qf[ks], kb[2], kb[3]);
            }
        }

        const bool edge = k0 + BN > tk || (CAUSAL && k0 + BN > q0 + warp * 16);
        float tileMax[2] = {rowMax[0], rowMax[1]};
#pragma unroll
        for (int nt = 0; nt < BN / 8; ++nt) {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                float x = s[nt][e] * scaleLog2;
                if (edge) {
                    const long long col = k0 + nt * 8 + 2 * t + (e & 1);
                    if (col >= tk || (CAUSAL && col > (e < 2 ? row0 : row1))) x = negInf;
                }
                s[nt][e] = x;
                tileMax[e >> 1] = fmaxf(tileMax[e >> 1], x);
            }
        }
        float scale[2];
#pragma unroll
        for (int r = 0; r < 2; ++r) {
            tileMax[r] = kiln_quad_max(tileMax[r]);
            // A row with no key yet keeps a zero base, so exp2 of -inf stays 0, never NaN.
            const float base = tileMax[r] == negInf ? 0.f : tileMax[r];
            scale[r] = exp2f(rowMax[r] - base);
            rowMax[r] = tileMax[r];
            rowSum[r] *= scale[r];
            tileMax[r] = base;
        }
#pragma unroll
        for (int dn = 0; dn < D / 8; ++dn) {
            acc[dn][0] *= scale[0];
            acc[dn][1] *= scale[0];
            acc[dn][2] *= scale[1];
            acc[dn][3] *= scale[1];
        }
#pragma unroll
        for (int kk = 0; kk < BN / 16; ++kk) {
            unsigned pa[4];
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                float* p = s[2 * kk + half];
                p[0] = exp2f(p[0] - tileMax[0]);
                p[1] = exp2f(p[1] - tileMax[0]);
                p[2] = exp2f(p[2] - tileMax[1]);
                p[3] = exp2f(p[3] - tileMax[1]);
                rowSum[0] += p[0] + p[1];
                rowSum[1] += p[2] + p[3];
                pa[2 * half] = kiln_pack(p[0], p[1]);
                pa[2 * half + 1] = kiln_pack(p[2], p[3]);
            }
#pragma unroll
            for (int dn = 0; dn < D / 8; dn += 2) {
                unsigned vb[4];
                kiln_ldmatrix_x4_trans(
                    vb, &sV[(kk * 16 + ((lane >> 3) & 1) * 8 + (lane & 7)) * LDS +
                            (dn + (lane >> 4)) * 8]);
                kiln_mma(acc[dn], pa, vb[0], vb[1]);
                kiln_mma(acc[dn + 1], pa, vb[2], vb[3]);
            }
        }
    }

    const float sum0 = kiln_quad_sum(rowSum[0]), sum1 = kiln_quad_sum(rowSum[1]);
    const float inv0 = sum0 > 0.f ? 1.f / sum0 : 0.f, inv1 = sum1 > 0.f ? 1.f / sum1 : 0.f;
#pragma unroll
    for (int dn = 0; dn < D / 8; ++dn) {
        const int col = dn * 8 + 2 * t;
        if (row0 < tq)
            *reinterpret_cast<unsigned*>(out + row0 * D + col) =
                kiln_pack(acc[dn][0] * inv0, acc[dn][1] * inv0);
        if (row1 < tq)
            *reinterpret_cast<unsigned*>(out + row1 * D + col) =
                kiln_pack(acc[dn][2] * inv1, acc[dn][3] * inv1);
    }
}
)";

} // namespace

std::string attentionKernelName(const AttentionKernelSpec& spec) {
    return std::string("kiln_flash_attention_") +
           (spec.dtype == tensor::DType::Float16 ? "f16" : "bf16") + "_d" +
           std::to_string(spec.headDim) + (spec.causal ? "_causal" : "");
}

std::string attentionKernelSource(const AttentionKernelSpec& spec) {
    std::string head = "// " + attentionKernelName(spec) + "\n";
    head += "#define KILN_NAME " + attentionKernelName(spec) + "\n";
    head += std::string("#define KILN_MMA_TYPE \"") +
            (spec.dtype == tensor::DType::Float16 ? "f16" : "bf16") + "\"\n";
    head += "constexpr int D = " + std::to_string(spec.headDim) + ";\n";
    head += std::string("constexpr bool CAUSAL = ") + (spec.causal ? "true" : "false") + ";\n";
    return head + kBody;
}

} // namespace kiln::codegen::cuda
