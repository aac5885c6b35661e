// SPDX-License-Identifier: MIT
#include "codegen/cuda/prelude.h"

namespace kiln::codegen::cuda {

namespace {

// Conversions match PyTorch's: bf16 widens by a shift and narrows with round-to-nearest-even
// (cvt.rn.bf16.f32 on sm_80 and later)
// (NaN stays a quiet NaN); fp16 goes through the hardware cvt instructions.
constexpr const char* kConversions = R"(
typedef unsigned char uint8_t;
typedef signed char int8_t;
typedef short int16_t;
typedef unsigned short kiln_bf16;
typedef unsigned short kiln_f16;
__device__ __forceinline__ float kiln_bf16_to_f32(kiln_bf16 v) {
    return __uint_as_float(((unsigned)v) << 16);
}
__device__ __forceinline__ kiln_bf16 kiln_f32_to_bf16(float f) {
    if (f != f) return (kiln_bf16)0x7fc0;
#if __CUDA_ARCH__ >= 800
    kiln_bf16 h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
#else
    unsigned bits = __float_as_uint(f);
    bits += ((bits >> 16) & 1u) + 0x7fffu;
    return (kiln_bf16)(bits >> 16);
#endif
}
__device__ __forceinline__ float kiln_f16_to_f32(kiln_f16 v) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(v));
    return f;
}
__device__ __forceinline__ kiln_f16 kiln_f32_to_f16(float f) {
    kiln_f16 h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}
)";

// torch.maximum/amax: NaN wins.
constexpr const char* kMath = R"(
template <typename T> __device__ __forceinline__ T kiln_max(T a, T b) {
    return (a > b || a != a) ? a : b;
}
template <typename T> __device__ __forceinline__ T kiln_min(T a, T b) {
    return (a < b || a != a) ? a : b;
}
#if __CUDA_ARCH__ >= 800
// One instruction each (the .NaN forms propagate NaN as the comparisons above do).
template <> __device__ __forceinline__ float kiln_max(float a, float b) {
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
template <> __device__ __forceinline__ float kiln_min(float a, float b) {
    float r;
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
#endif
template <typename T> __device__ __forceinline__ T kiln_sign(T x) {
    return (T)((T(0) < x) - (x < T(0)));
}
// Python's a % b (the sign of b): the C remainder, corrected where the signs differ.
template <typename T> __device__ __forceinline__ T kiln_mod(T a, T b) {
    T r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? (T)(r + b) : r;
}
__device__ __forceinline__ float kiln_mod(float a, float b) {
    float r = fmodf(a, b);
    return (r != 0.f && ((r < 0.f) != (b < 0.f))) ? r + b : r;
}
__device__ __forceinline__ double kiln_mod(double a, double b) {
    double r = fmod(a, b);
    return (r != 0.0 && ((r < 0.0) != (b < 0.0))) ? r + b : r;
}
)";

// N elements of T through the widest accesses that divide them: 16-byte vectors for 4 floats
// or 8 bf16, 8 bytes for 4 bf16. The caller guarantees the address is aligned to the bytes.
constexpr const char* kVectors = R"(
template <int N, typename T>
__device__ __forceinline__ void kiln_vload(T (&dst)[N], const T* __restrict__ src) {
    constexpr int bytes = N * (int)sizeof(T);
    if constexpr (bytes % 16 == 0) {
#pragma unroll
        for (int i = 0; i < bytes / 16; ++i)
            reinterpret_cast<uint4*>(dst)[i] = reinterpret_cast<const uint4*>(src)[i];
    } else if constexpr (bytes % 8 == 0) {
#pragma unroll
        for (int i = 0; i < bytes / 8; ++i)
            reinterpret_cast<uint2*>(dst)[i] = reinterpret_cast<const uint2*>(src)[i];
    } else {
#pragma unroll
        for (int i = 0; i < N; ++i) dst[i] = src[i];
    }
}
// kiln_vload unless `skip` (then zeros), as predicated loads: no branch, so the scheduler
// can still issue a thread's loads of several vectors back to back.
template <int N, typename T>
__device__ __forceinline__ void kiln_vload_unless(T (&dst)[N], const T* __restrict__ src,
                                                  bool skip) {
    constexpr int bytes = N * (int)sizeof(T);
    if constexpr (bytes % 16 == 0) {
#pragma unroll
        for (int i = 0; i < bytes / 16; ++i) {
            uint4 v = make_uint4(0u, 0u, 0u, 0u);
            asm("{\n .reg .pred p;\n setp.eq.u32 p, %5, 0;\n"
                " @p ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];\n}\n"
                : "+r"(v.x), "+r"(v.y), "+r"(v.z), "+r"(v.w)
                : "l"(reinterpret_cast<const uint4*>(src) + i), "r"((unsigned)skip));
            reinterpret_cast<uint4*>(dst)[i] = v;
        }
    } else {
#pragma unroll
        for (int i = 0; i < N; ++i) dst[i] = skip ? T{} : src[i];
    }
}
template <int N, typename T>
__device__ __forceinline__ void kiln_vstore(T* __restrict__ dst, const T (&src)[N]) {
    constexpr int bytes = N * (int)sizeof(T);
    if constexpr (bytes % 16 == 0) {
#pragma unroll
        for (int i = 0; i < bytes / 16; ++i)
            reinterpret_cast<uint4*>(dst)[i] = reinterpret_cast<const uint4*>(src)[i];
    } else if constexpr (bytes % 8 == 0) {
#pragma unroll
        for (int i = 0; i < bytes / 8; ++i)
            reinterpret_cast<uint2*>(dst)[i] = reinterpret_cast<const uint2*>(src)[i];
    } else {
#pragma unroll
        for (int i = 0; i < N; ++i) dst[i] = src[i];
    }
}
__device__ __forceinline__ bool kiln_aligned(const void* p, int bytes) {
    return (reinterpret_cast<unsigned long long>(p) & (unsigned long long)(bytes - 1)) == 0;
}
)";

// Philox4x32-10 as engine/codegen/cpu/random_ir.h: key = the 64-bit seed, counter = (index
// low, index high, stream, 0); the same values as the CPU kernels for the same seed.
constexpr const char* kPhilox = R"(
__device__ __forceinline__ uint4 kiln_philox(uint4 c, unsigned k0, unsigned k1) {
#pragma unroll
    for (int round = 0; round < 10; ++round) {
        if (round > 0) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }
        unsigned hi0 = __umulhi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
        unsigned hi1 = __umulhi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
        c = make_uint4(hi1 ^ c.y ^ k0, lo1, hi0 ^ c.w ^ k1, lo0);
    }
    return c;
}
__device__ __forceinline__ float kiln_rand_f32(long long seed, long long counter, unsigned stream) {
    uint4 r = kiln_philox(make_uint4((unsigned)counter, (unsigned)((unsigned long long)counter >> 32),
                                     stream, 0u),
                          (unsigned)seed, (unsigned)((unsigned long long)seed >> 32));
    return (float)(r.x >> 8) * 0x1.0p-24f;
}
__device__ __forceinline__ double kiln_rand_f64(long long seed, long long counter, unsigned stream) {
    uint4 r = kiln_philox(make_uint4((unsigned)counter, (unsigned)((unsigned long long)counter >> 32),
                                     stream, 0u),
                          (unsigned)seed, (unsigned)((unsigned long long)seed >> 32));
    unsigned long long bits = ((unsigned long long)r.x << 32) | r.y;
    return (double)(long long)(bits >> 11) * 0x1.0p-53;
}
)";

// Reductions across a warp (xor butterflies: every lane ends with the result) and a block
// (each warp's result through shared memory, then one more butterfly in every warp). There is
// no shuffle of 8- and 16-bit values: they travel as int and come back as T.
constexpr const char* kReductions = R"(
struct KilnSum { template <typename T> __device__ T operator()(T a, T b) const { return a + b; } };
struct KilnProd { template <typename T> __device__ T operator()(T a, T b) const { return a * b; } };
struct KilnMax { template <typename T> __device__ T operator()(T a, T b) const { return kiln_max(a, b); } };
struct KilnMin { template <typename T> __device__ T operator()(T a, T b) const { return kiln_min(a, b); } };
struct KilnAny { __device__ bool operator()(bool a, bool b) const { return a || b; } };
struct KilnAll { __device__ bool operator()(bool a, bool b) const { return a && b; } };

template <typename T, typename Op> __device__ __forceinline__ T kiln_warp_reduce(T v, Op op) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v = op(v, (T)__shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}
template <typename T, typename Op>
__device__ __forceinline__ T kiln_block_reduce(T v, Op op, T identity, T* smem) {
    v = kiln_warp_reduce(v, op);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
    if (lane == 0) smem[warp] = v;
    __syncthreads();
    v = lane < warps ? smem[lane] : identity;
    return kiln_warp_reduce(v, op);
}

// Welford moments (count, mean, m2) merged by Chan et al.'s formula.
struct KilnWelford { float n, mean, m2; };
__device__ __forceinline__ KilnWelford kiln_welford_merge(KilnWelford a, KilnWelford b) {
    float n = a.n + b.n;
    if (n == 0.f) return a;
    float delta = b.mean - a.mean, share = b.n / n;
    return KilnWelford{n, a.mean + delta * share, a.m2 + b.m2 + delta * delta * a.n * share};
}
__device__ __forceinline__ KilnWelford kiln_warp_welford(KilnWelford w) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        KilnWelford o{__shfl_xor_sync(0xffffffffu, w.n, offset),
                      __shfl_xor_sync(0xffffffffu, w.mean, offset),
                      __shfl_xor_sync(0xffffffffu, w.m2, offset)};
        w = kiln_welford_merge(w, o);
    }
    return w;
}
__device__ __forceinline__ KilnWelford kiln_block_welford(KilnWelford w, KilnWelford* smem) {
    w = kiln_warp_welford(w);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
    if (lane == 0) smem[warp] = w;
    __syncthreads();
    w = lane < warps ? smem[lane] : KilnWelford{0.f, 0.f, 0.f};
    return kiln_warp_welford(w);
}

// Online softmax: (running max, sum of exp(x - max)) pairs; a max of -inf scales by 1 so that
// rows (or a thread's part of them) of -inf stay NaN-free until the division.
struct KilnSoftmax { float m, s; };
__device__ __forceinline__ float kiln_exp_shift(float m, float mNew) {
    return m == mNew ? 1.f : expf(m - mNew);
}
__device__ __forceinline__ KilnSoftmax kiln_softmax_merge(KilnSoftmax a, KilnSoftmax b) {
    float m = kiln_max(a.m, b.m);
    return KilnSoftmax{m, a.s * kiln_exp_shift(a.m, m) + b.s * kiln_exp_shift(b.m, m)};
}
__device__ __forceinline__ KilnSoftmax kiln_warp_softmax(KilnSoftmax v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        KilnSoftmax o{__shfl_xor_sync(0xffffffffu, v.m, offset),
                      __shfl_xor_sync(0xffffffffu, v.s, offset)};
        v = kiln_softmax_merge(v, o);
    }
    return v;
}
__device__ __forceinline__ KilnSoftmax kiln_block_softmax(KilnSoftmax v, KilnSoftmax* smem) {
    v = kiln_warp_softmax(v);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
    if (lane == 0) smem[warp] = v;
    __syncthreads();
    v = lane < warps ? smem[lane] : KilnSoftmax{-__int_as_float(0x7f800000), 0.f};
    return kiln_warp_softmax(v);
}

// argmax/argmin: the first index of the extreme value, NaN counting as the extreme.
template <typename T> struct KilnArg { T v; long long i; };
template <typename T>
__device__ __forceinline__ KilnArg<T> kiln_arg_merge(KilnArg<T> a, KilnArg<T> b, bool isMax) {
    bool aNan = a.v != a.v, bNan = b.v != b.v;
    bool better = isMax ? (b.v > a.v) : (b.v < a.v);
    if (aNan && !bNan) return a;
    if (bNan && !aNan) return b;
    if (better || ((a.v == b.v || (aNan && bNan)) && b.i < a.i)) return b;
    return a;
}
template <typename T>
__device__ __forceinline__ KilnArg<T> kiln_warp_arg(KilnArg<T> a, bool isMax) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        KilnArg<T> o{(T)__shfl_xor_sync(0xffffffffu, a.v, offset),
                     __shfl_xor_sync(0xffffffffu, a.i, offset)};
        a = kiln_arg_merge(a, o, isMax);
    }
    return a;
}
template <typename T>
__device__ __forceinline__ KilnArg<T> kiln_block_arg(KilnArg<T> a, bool isMax, T identity,
                                                      KilnArg<T>* smem) {
    a = kiln_warp_arg(a, isMax);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = (blockDim.x + 31) >> 5;
    if (lane == 0) smem[warp] = a;
    __syncthreads();
    a = lane < warps ? smem[lane] : KilnArg<T>{identity, 0x7fffffffffffffffLL};
    return kiln_warp_arg(a, isMax);
}
)";

// Single-precision sin, cos and tan as libdevice computes them, except that arguments of
// magnitude 105615 and above (where libdevice leaves its three-constant range reduction for
// the long Payne-Hanek one, with a local array and a loop) call it out of line. The inlined
// copies test the same condition libdevice tests, so after inlining NVVM folds libdevice's own
// test and drops its long path: every unrolled element no longer carries one, which halved
// NVRTC's time on sin+cos (392 -> 192 ms). The results are libdevice's, bit for bit.
constexpr const char* kTrig = R"(
struct KilnSinCos { float s, c; };
__device__ __noinline__ KilnSinCos kiln_sincosf_large(float x) {
    KilnSinCos r;
    sincosf(x, &r.s, &r.c);
    return r;
}
__device__ __forceinline__ void kiln_sincosf(float x, float* s, float* c) {
    if (fabsf(x) >= 105615.0f) {
        KilnSinCos r = kiln_sincosf_large(x);
        *s = r.s;
        *c = r.c;
    } else {
        sincosf(x, s, c);
    }
}
__device__ __noinline__ float kiln_tanf_large(float x) {
    return tanf(x);
}
__device__ __forceinline__ float kiln_tanf(float x) {
    return fabsf(x) >= 105615.0f ? kiln_tanf_large(x) : tanf(x);
}
)";

} // namespace

std::string kernelPrelude(bool int64Index, const std::string& body) {
    // Only the sections the kernel uses: NVRTC's time grows with the text it parses.
    std::string text = "// Kiln CUDA kernel (generated)\n";
    text += int64Index ? "typedef long long kiln_idx;\n" : "typedef int kiln_idx;\n";
    text += kConversions;
    text += kMath;
    text += kVectors;
    if (body.find("kiln_rand_") != std::string::npos) text += kPhilox;
    if (body.find("Kiln") != std::string::npos) text += kReductions;
    if (body.find("kiln_sincosf(") != std::string::npos ||
        body.find("kiln_tanf(") != std::string::npos)
        text += kTrig;
    return text;
}

} // namespace kiln::codegen::cuda
