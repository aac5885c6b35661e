// SPDX-License-Identifier: MIT
/// \file
/// Internal: the counter-based random generator of compiled kernels (the loop IR's
/// RandUniform) as LLVM IR. Philox4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel random
/// numbers: as easy as 1, 2, 3", SC 2011), the generator of PyTorch's CUDA and Inductor
/// kernels (and of Random123, cuRAND, JAX): ten rounds of two 32x32->64 multiplies and xors
/// that pass BigCrush for any key. It is a pure function of (key, counter), so each element
/// computes its own value from its index: no state, no memory, no calls; the loop vectorizer
/// widens it like any integer arithmetic (the multiplies become vpmuludq).
///
/// Kernels use key = the per-call 64-bit seed and counter = (index low, index high, stream, 0):
/// the stream (which random op of the graph) sits in a counter word of its own, so the random
/// ops of one graph draw from disjoint counter ranges. Not bit-compatible with eager's
/// mt19937-based generator (Inductor's values differ from eager's too; fallback_random gives
/// eager's).
#pragma once

#include <array>
#include <cstdint>
#include <llvm/IR/IRBuilder.h>

namespace kiln::codegen {

/// Philox4x32-10 of a 128-bit counter under a 64-bit key (i32 values, as the reference
/// implementation's philox4x32_R(10, ctr, key)).
inline std::array<llvm::Value*, 4> philox4x32x10(llvm::IRBuilderBase& b,
                                                 std::array<llvm::Value*, 4> ctr,
                                                 std::array<llvm::Value*, 2> key) {
    constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
    constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
    llvm::Type* i32 = b.getInt32Ty();
    llvm::Type* i64 = b.getInt64Ty();
    auto mulhilo = [&](uint32_t m, llvm::Value* x, llvm::Value*& hi, llvm::Value*& lo) {
        llvm::Value* p = b.CreateMul(b.CreateZExt(x, i64), b.getInt64(m), "", true, false);
        lo = b.CreateTrunc(p, i32);
        hi = b.CreateTrunc(b.CreateLShr(p, 32), i32);
    };
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            key[0] = b.CreateAdd(key[0], b.getInt32(kWeyl0));
            key[1] = b.CreateAdd(key[1], b.getInt32(kWeyl1));
        }
        llvm::Value *hi0 = nullptr, *lo0 = nullptr, *hi1 = nullptr, *lo1 = nullptr;
        mulhilo(kMul0, ctr[0], hi0, lo0);
        mulhilo(kMul1, ctr[2], hi1, lo1);
        ctr = {b.CreateXor(b.CreateXor(hi1, ctr[1]), key[0]), lo1,
               b.CreateXor(b.CreateXor(hi0, ctr[3]), key[1]), lo0};
    }
    return ctr;
}

/// A uniform float in [0, 1) for i64 `counter` under i64 `seed` in random stream `stream`:
/// float: the first output word's top 24 bits times 2^-24; double: 53 bits of the first two
/// words times 2^-53 (every value a multiple of the spacing, so none rounds up to 1).
inline llvm::Value* randUniformIR(llvm::IRBuilderBase& b, llvm::Value* seed, llvm::Value* counter,
                                  uint32_t stream, llvm::Type* floatType) {
    llvm::Type* i32 = b.getInt32Ty();
    llvm::Type* i64 = b.getInt64Ty();
    auto low = [&](llvm::Value* v) { return b.CreateTrunc(v, i32); };
    auto high = [&](llvm::Value* v) { return b.CreateTrunc(b.CreateLShr(v, 32), i32); };
    std::array<llvm::Value*, 4> out =
        philox4x32x10(b, {low(counter), high(counter), b.getInt32(stream), b.getInt32(0)},
                      {low(seed), high(seed)});
    if (floatType->isDoubleTy()) {
        llvm::Value* bits =
            b.CreateOr(b.CreateShl(b.CreateZExt(out[0], i64), 32), b.CreateZExt(out[1], i64));
        // < 2^53: non-negative, so the signed conversion (one instruction on AVX-512) is exact.
        llvm::Value* mantissa = b.CreateSIToFP(b.CreateLShr(bits, 11), floatType);
        return b.CreateFMul(mantissa, llvm::ConstantFP::get(floatType, 0x1.0p-53));
    }
    llvm::Value* mantissa = b.CreateSIToFP(b.CreateLShr(out[0], 8), floatType);
    return b.CreateFMul(mantissa, llvm::ConstantFP::get(floatType, 0x1.0p-24));
}

} // namespace kiln::codegen
