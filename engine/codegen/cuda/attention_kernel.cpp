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

constexpr int BM = 64 * MT;   // query rows per block: 4 warps of MT m16 tiles each
constexpr unsigned char KILN_TILE_NONE = 0, KILN_TILE_SOME = 1, KILN_TILE_ALL = 2;
constexpr int KILN_SHARED_TILE_CLASSES = 1024; // key tiles whose classes a block keeps in shared memory
constexpr int LDS = D + 8;     // +8: ldmatrix rows fall in distinct banks
constexpr int TILE = BN * LDS; // one key or value tile in shared memory
static_assert(BM <= 2 * BN, "the query tile is staged in one key/value buffer pair");

/// 16 bytes from global to shared memory without passing through registers; `valid` false
/// writes zeros (rows past the sequence's end).
__device__ __forceinline__ void kiln_copy16(void* dst, const void* src, bool valid) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(kiln_smem_address(dst)),
                 "l"(src), "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void kiln_copies_issued() {
    asm volatile("cp.async.commit_group;");
}
template <int Pending> __device__ __forceinline__ void kiln_copies_wait() {
    asm volatile("cp.async.wait_group %0;" ::"n"(Pending));
}

/// Starts copying Rows x D elements from `src` (row stride `stride`) into shared memory; rows
/// at or past `valid` are zeros.
template <int Rows>
__device__ __forceinline__ void kiln_stage(kiln_half_bits* dst, const kiln_half_bits* src,
                                           long long stride, int valid) {
    for (int c = threadIdx.x; c < Rows * D / 8; c += blockDim.x) {
        const int r = c / (D / 8), col = (c % (D / 8)) * 8;
        const bool inside = r < valid;
        kiln_copy16(dst + r * LDS + col, inside ? src + (long long)r * stride + col : src, inside);
    }
}

// Shared memory: two buffers of a key tile and a value tile (buffer b: keys at 2 b TILE,
// values after), so the next tile's copies run while the tensor cores work on this one; the
// query tile passes through the second buffer first.
extern "C" __global__ void __launch_bounds__(128, MIN_BLOCKS) KILN_NAME(
    const kiln_half_bits* __restrict__ q, const kiln_half_bits* __restrict__ k,
    const kiln_half_bits* __restrict__ v, kiln_half_bits* __restrict__ out, long long tq,
    long long tk, long long heads, long long qsb, long long qsh, long long qst, long long ksb,
    long long ksh, long long kst, long long vsb, long long vsh, long long vst,
    float scaleLog2
#if KILN_MASKED
    // mask: true where the score is masked out (-inf), at batch, head and row strides (0 where
    // it broadcasts; columns are contiguous); summary: kiln_mask_summary's tile classes, at batch and head
    // strides (0 where the mask broadcasts).
    , const unsigned char* __restrict__ mask, long long msb, long long msh, long long mst,
    const unsigned char* __restrict__ summary, long long ssb, long long ssh
#endif
    ) {
    extern __shared__ __align__(16) kiln_half_bits shared[];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    // Later query tiles have more keys to visit under a causal mask: start them first.
    // Positions along a sequence fit an int (a longer one would not fit in memory).
    const int tile = CAUSAL ? (int)gridDim.x - 1 - (int)blockIdx.x : (int)blockIdx.x;
    const long long bh = blockIdx.y, b = bh / heads, h = bh % heads;
    const int q0 = tile * BM, nq = (int)tq, nk = (int)tk;
    q += b * qsb + h * qsh;
    k += b * ksb + h * ksh;
    v += b * vsb + h * vsh;
    out += bh * tq * D;

    // The key tiles this block visits: without a mask, those before its last query row
    // (causal) or all; under a mask, those its summary says keep a score (the others add
    // nothing to any row). The summary's row for this query tile is read into shared memory
    // once: the next tile's copies are issued before this one is computed, and a global read
    // to find it would stall every step.
    const int lastKey = CAUSAL ? (q0 + BM < nk ? q0 + BM : nk) : nk;
    const int tilesK = KILN_MASKED ? (nk + BN - 1) / BN : (lastKey + BN - 1) / BN;
#if KILN_MASKED
    mask += b * msb + h * msh;
    summary += b * ssb + h * ssh + (long long)tile * ((nk + BN - 1) / BN);
    __shared__ unsigned char tileClass[KILN_SHARED_TILE_CLASSES];
    const bool classesShared = tilesK <= KILN_SHARED_TILE_CLASSES;
    if (classesShared)
        for (int i = threadIdx.x; i < tilesK; i += blockDim.x)
            tileClass[i] = summary[i];
    __syncthreads();
    auto summary_at = [&](int t) { return classesShared ? tileClass[t] : summary[t]; };
#else
    auto summary_at = [](int) { return KILN_TILE_ALL; };
#endif
    auto nextTile = [&](int jt) {
        ++jt;
        while (KILN_MASKED && jt < tilesK && summary_at(jt) == KILN_TILE_NONE)
            ++jt;
        return jt;
    };
    int jt = nextTile(-1);
    if (jt < tilesK) {
        kiln_stage<BN>(shared, k + (long long)jt * BN * kst, kst, nk - jt * BN);
        kiln_stage<BN>(shared + TILE, v + (long long)jt * BN * vst, vst, nk - jt * BN);
    }
    kiln_copies_issued();
    kiln_stage<BM>(shared + 2 * TILE, q + q0 * qst, qst, nq - q0);
    kiln_copies_issued();
    kiln_copies_wait<0>();
    __syncthreads();
    // Warp w holds query rows q0 + 16 (w MT + m) + {g, g + 8} of its m tiles.
    unsigned qf[MT][D / 16][4];
#pragma unroll
    for (int m = 0; m < MT; ++m)
#pragma unroll
        for (int ks = 0; ks < D / 16; ++ks)
            kiln_ldmatrix_x4(qf[m][ks], &shared[2 * TILE + ((warp * MT + m) * 16 + (lane & 15)) * LDS +
                                                ks * 16 + (lane >> 4) * 8]);

    const float negInf = __int_as_float(0xff800000);
    float rowMax[MT][2], rowSum[MT][2], acc[MT][D / 8][4];
    int rows[MT][2];
#pragma unroll
    for (int m = 0; m < MT; ++m) {
        rowMax[m][0] = rowMax[m][1] = negInf;
        rowSum[m][0] = rowSum[m][1] = 0.f;
        rows[m][0] = q0 + (warp * MT + m) * 16 + g;
        rows[m][1] = rows[m][0] + 8;
#pragma unroll
        for (int dn = 0; dn < D / 8; ++dn)
            acc[m][dn][0] = acc[m][dn][1] = acc[m][dn][2] = acc[m][dn][3] = 0.f;
    }
    __syncthreads(); // every warp has its query fragments: buffer 1 is free

    for (int j = 0; jt < tilesK; ++j) {
        const int buf = j & 1, k0 = jt * BN, jn = nextTile(jt);
        if (jn < tilesK) {
            kiln_half_bits* next = shared + 2 * (buf ^ 1) * TILE;
            kiln_stage<BN>(next, k + (long long)jn * BN * kst, kst, nk - jn * BN);
            kiln_stage<BN>(next + TILE, v + (long long)jn * BN * vst, vst, nk - jn * BN);
            kiln_copies_issued();
            kiln_copies_wait<1>();
        } else {
            kiln_copies_wait<0>();
        }
        __syncthreads(); // this tile's copies are visible to every warp
        const kiln_half_bits* tileK = shared + 2 * buf * TILE;
        const kiln_half_bits* tileV = tileK + TILE;

        // A tile the mask keeps only partly is masked score by score.
        // A tile the mask keeps only partly is masked score by score: the thread's mask bits
        // are read before the products, while few registers are live, in a loop of their own,
        // so that the score loop below stays free of loads and branches (with loads inside
        // it, the compiler branched per score and spilled: twice the time).
        const bool partial = KILN_MASKED && summary_at(jt) == KILN_TILE_SOME;
        // Bit nt * 4 + e of row pair m: the score s[m][nt][e] is masked out.
        unsigned maskedBits[MT][BN / 64] = {};
#if KILN_MASKED
        if (partial) {
#pragma unroll
            for (int m = 0; m < MT; ++m)
#pragma unroll
                for (int r = 0; r < 2; ++r) {
                    if (rows[m][r] >= nq) continue;
                    // Columns k0 + 2t + nt * 8 + c: constant offsets from one row pointer.
                    const unsigned char* p = mask + (long long)rows[m][r] * mst + k0 + 2 * t;
                    const int left = nk - k0 - 2 * t;
#pragma unroll
                    for (int nt = 0; nt < BN / 8; ++nt)
#pragma unroll
                        for (int c = 0; c < 2; ++c)
                            if (nt * 8 + c < left && p[nt * 8 + c])
                                maskedBits[m][nt / 8] |= 1u << (nt % 8 * 4 + r * 2 + c);
                }
        }
#endif
        float s[MT][BN / 8][4];
#pragma unroll
        for (int m = 0; m < MT; ++m)
#pragma unroll
            for (int nt = 0; nt < BN / 8; ++nt)
                s[m][nt][0] = s[m][nt][1] = s[m][nt][2] = s[m][nt][3] = 0.f;
#pragma unroll
        for (int ks = 0; ks < D / 16; ++ks) {
#pragma unroll
            for (int nt = 0; nt < BN / 8; nt += 2) {
                unsigned kb[4];
                kiln_ldmatrix_x4(kb, &tileK[(nt * 8 + (lane >> 4) * 8 + (lane & 7)) * LDS + ks * 16 +
                                         ((lane >> 3) & 1) * 8]);
#pragma unroll
                for (int m = 0; m < MT; ++m) {
                    kiln_mma(s[m][nt], qf[m][ks], kb[0], kb[1]);
                    kiln_mma(s[m][nt + 1], qf[m][ks], kb[2], kb[3]);
                }
            }
        }

        // Scores past the keys, after the diagonal or masked out become -inf, in a pass of its
        // own that only edge tiles take: tested inside the loop below, the compiler predicated
        // the tests into every score of every tile (a quarter more instructions for the
        // masked kernel, measured with ncu on an H100).
        const bool edge = k0 + BN > nk || (CAUSAL && k0 + BN > q0 + warp * MT * 16) || partial;
        if (edge) {
#pragma unroll
            for (int m = 0; m < MT; ++m)
#pragma unroll
                for (int nt = 0; nt < BN / 8; ++nt)
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const int col = k0 + nt * 8 + 2 * t + (e & 1);
                        if (col >= nk || (CAUSAL && col > rows[m][e >> 1]) ||
                            (maskedBits[m][nt / 8] >> (nt % 8 * 4 + e) & 1u))
                            s[m][nt][e] = negInf;
                    }
        }
        float base[MT][2];
#pragma unroll
        for (int m = 0; m < MT; ++m) {
            float tileMax[2] = {rowMax[m][0], rowMax[m][1]};
#pragma unroll
            for (int nt = 0; nt < BN / 8; ++nt) {
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const float x = s[m][nt][e] * scaleLog2; // -inf stays -inf (scale > 0)
                    s[m][nt][e] = x;
                    tileMax[e >> 1] = fmaxf(tileMax[e >> 1], x);
                }
            }
#pragma unroll
            for (int r = 0; r < 2; ++r) {
                tileMax[r] = kiln_quad_max(tileMax[r]);
                // A row with no key yet keeps a zero base, so exp2 of -inf stays 0, never NaN.
                base[m][r] = tileMax[r] == negInf ? 0.f : tileMax[r];
                const float rescale = exp2f(rowMax[m][r] - base[m][r]);
                rowMax[m][r] = tileMax[r];
                rowSum[m][r] *= rescale;
#pragma unroll
                for (int dn = 0; dn < D / 8; ++dn) {
                    acc[m][dn][2 * r] *= rescale;
                    acc[m][dn][2 * r + 1] *= rescale;
                }
            }
        }
#pragma unroll
        for (int kk = 0; kk < BN / 16; ++kk) {
            unsigned pa[MT][4];
#pragma unroll
            for (int m = 0; m < MT; ++m)
#pragma unroll
                for (int half = 0; half < 2; ++half) {
                    float* p = s[m][2 * kk + half];
                    p[0] = exp2f(p[0] - base[m][0]);
                    p[1] = exp2f(p[1] - base[m][0]);
                    p[2] = exp2f(p[2] - base[m][1]);
                    p[3] = exp2f(p[3] - base[m][1]);
                    rowSum[m][0] += p[0] + p[1];
                    rowSum[m][1] += p[2] + p[3];
                    pa[m][2 * half] = kiln_pack(p[0], p[1]);
                    pa[m][2 * half + 1] = kiln_pack(p[2], p[3]);
                }
#pragma unroll
            for (int dn = 0; dn < D / 8; dn += 2) {
                unsigned vb[4];
                kiln_ldmatrix_x4_trans(
                    vb, &tileV[(kk * 16 + ((lane >> 3) & 1) * 8 + (lane & 7)) * LDS +
                               (dn + (lane >> 4)) * 8]);
#pragma unroll
                for (int m = 0; m < MT; ++m) {
                    kiln_mma(acc[m][dn], pa[m], vb[0], vb[1]);
                    kiln_mma(acc[m][dn + 1], pa[m], vb[2], vb[3]);
                }
            }
        }
        __syncthreads(); // the next iteration's copies overwrite this tile's buffers
        jt = jn;
    }

#pragma unroll
    for (int m = 0; m < MT; ++m)
#pragma unroll
        for (int r = 0; r < 2; ++r) {
            const float sum = kiln_quad_sum(rowSum[m][r]);
            // A row with no score kept: zeros (scaled_dot_product_attention's safe softmax), or
            // NaN as softmax over a row of -inf gives (attention written out by hand).
            const float inv = sum > 0.f ? 1.f / sum : EMPTY_ROW;
            if (rows[m][r] >= nq) continue;
#pragma unroll
            for (int dn = 0; dn < D / 8; ++dn)
                *reinterpret_cast<unsigned*>(out + (long long)rows[m][r] * D + dn * 8 + 2 * t) =
                    kiln_pack(acc[m][dn][2 * r] * inv, acc[m][dn][2 * r + 1] * inv);
        }
}

)";

// The masked kernel's summary, a program of its own so that NVRTC compiles it beside the
// attention kernel rather than after it.
constexpr const char* kSummaryBody = R"(
constexpr int BM = 64 * MT;
constexpr unsigned char KILN_TILE_NONE = 0, KILN_TILE_SOME = 1, KILN_TILE_ALL = 2;

/// The high bit of each zero byte of x.
__device__ __forceinline__ unsigned kiln_zero_bytes(unsigned x) {
    return (x - 0x01010101u) & ~x & 0x80808080u;
}

// For each (mask batch, mask head, query tile of BM rows, key tile of BN keys): whether the
// mask keeps none of the tile's scores, some, or all. The attention kernel skips the first kind
// and masks score by score only in the second. Grid: (query tiles * key tiles, mask batches *
// mask heads).
extern "C" __global__ void __launch_bounds__(128) KILN_SUMMARY_NAME(
    const unsigned char* __restrict__ mask, long long msb, long long msh, long long mst,
    long long tq, long long tk, long long mheads, unsigned char* __restrict__ out) {
    const long long tilesK = (tk + BN - 1) / BN;
    const long long qt = blockIdx.x / tilesK, kt = blockIdx.x % tilesK;
    const long long bh = blockIdx.y;
    mask += (bh / mheads) * msb + (bh % mheads) * msh;
    // A row of the tile per thread, its BN bytes loaded together (16 at a time where the row
    // is contiguous and aligned): one memory latency per row instead of one per byte, which
    // made this kernel cost as much as a third of the attention kernel.
    bool any = false, all = true;
    const int cols = tk - kt * BN < BN ? (int)(tk - kt * BN) : BN;
    for (int r = threadIdx.x; r < BM; r += blockDim.x) {
        const long long row = qt * BM + r;
        if (row >= tq) break;
        const unsigned char* p = mask + row * mst + kt * BN;
        if (cols == BN && (reinterpret_cast<unsigned long long>(p) & 15) == 0) {
            uint4 v[BN / 16];
#pragma unroll
            for (int i = 0; i < BN / 16; ++i)
                v[i] = reinterpret_cast<const uint4*>(p)[i];
            // A kept score is a zero byte: a word with a zero byte keeps one.
            unsigned zeroBytes = 0, bytes = 0;
#pragma unroll
            for (int i = 0; i < BN / 16; ++i) {
                zeroBytes |= kiln_zero_bytes(v[i].x) | kiln_zero_bytes(v[i].y) |
                             kiln_zero_bytes(v[i].z) | kiln_zero_bytes(v[i].w);
                bytes |= v[i].x | v[i].y | v[i].z | v[i].w;
            }
            any = any || zeroBytes != 0;
            all = all && bytes == 0;
        } else { // a misaligned or partial row: byte by byte
            for (int c = 0; c < cols; ++c) {
                const bool kept = p[c] == 0;
                any = any || kept;
                all = all && kept;
            }
        }
    }
    any = __syncthreads_or(any);
    all = __syncthreads_and(all);
    if (threadIdx.x == 0)
        out[bh * gridDim.x + blockIdx.x] =
            any ? (all ? KILN_TILE_ALL : KILN_TILE_SOME) : KILN_TILE_NONE;
}
)";

} // namespace

AttentionKernelSpec attentionSpecFor(tensor::DType dtype, int headDim, bool causal, bool masked,
                                     bool emptyRowsNan) {
    AttentionKernelSpec spec;
    spec.dtype = dtype;
    spec.headDim = headDim;
    spec.causal = causal;
    spec.masked = masked;
    spec.emptyRowsNan = emptyRowsNan;
    spec.warpTiles = headDim <= 64 ? 2 : 1;
    return spec;
}

std::vector<AttentionKernelSpec> precompiledAttentionSpecs() {
    std::vector<AttentionKernelSpec> specs;
    for (tensor::DType dtype : {tensor::DType::BFloat16, tensor::DType::Float16})
        for (int headDim : {64, 128}) {
            specs.push_back(attentionSpecFor(dtype, headDim, false, false, false));
            specs.push_back(attentionSpecFor(dtype, headDim, true, false, false));
            specs.push_back(attentionSpecFor(dtype, headDim, false, true, true));
        }
    return specs;
}

int attentionSharedBytes(const AttentionKernelSpec& spec) {
    return 4 * spec.keysPerTile * (spec.headDim + 8) * 2; // two key and two value tiles
}

int attentionRowsPerBlock(const AttentionKernelSpec& spec) {
    return 64 * spec.warpTiles;
}

std::string attentionKernelName(const AttentionKernelSpec& spec) {
    std::string name = std::string("kiln_flash_attention_") +
                       (spec.dtype == tensor::DType::Float16 ? "f16" : "bf16") + "_d" +
                       std::to_string(spec.headDim) + (spec.causal ? "_causal" : "") +
                       (spec.masked ? "_masked" : "") + (spec.emptyRowsNan ? "_nanrows" : "");
    AttentionKernelSpec plain;
    if (spec.warpTiles != plain.warpTiles || spec.keysPerTile != plain.keysPerTile ||
        spec.minBlocksPerSM != plain.minBlocksPerSM)
        name += "_m" + std::to_string(spec.warpTiles) + "n" + std::to_string(spec.keysPerTile) +
                "b" + std::to_string(spec.minBlocksPerSM);
    return name;
}

std::string attentionSummaryKernelName(const AttentionKernelSpec& spec) {
    return attentionKernelName(spec) + "_summary";
}

std::string attentionSummaryKernelSource(const AttentionKernelSpec& spec) {
    std::string head = "// " + attentionSummaryKernelName(spec) + "\n";
    head += "#define KILN_SUMMARY_NAME " + attentionSummaryKernelName(spec) + "\n";
    head += "constexpr int MT = " + std::to_string(spec.warpTiles) + ";\n";
    head += "constexpr int BN = " + std::to_string(spec.keysPerTile) + ";\n";
    return head + kSummaryBody;
}

std::string attentionKernelSource(const AttentionKernelSpec& spec) {
    std::string head = "// " + attentionKernelName(spec) + "\n";
    head += "#define KILN_NAME " + attentionKernelName(spec) + "\n";
    head += std::string("#define KILN_MMA_TYPE \"") +
            (spec.dtype == tensor::DType::Float16 ? "f16" : "bf16") + "\"\n";
    head += "constexpr int D = " + std::to_string(spec.headDim) + ";\n";
    head += "constexpr int MT = " + std::to_string(spec.warpTiles) + ";\n";
    head += "constexpr int BN = " + std::to_string(spec.keysPerTile) + ";\n";
    head += "#define MIN_BLOCKS " + std::to_string(spec.minBlocksPerSM) + "\n";
    head += std::string("constexpr bool CAUSAL = ") + (spec.causal ? "true" : "false") + ";\n";
    head += std::string("#define KILN_MASKED ") + (spec.masked ? "1" : "0") + "\n";
    head += std::string("#define EMPTY_ROW ") +
            (spec.emptyRowsNan ? "__int_as_float(0x7fc00000)" : "0.f") + "\n";
    return head + kBody;
}

} // namespace kiln::codegen::cuda
