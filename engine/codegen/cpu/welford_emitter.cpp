// SPDX-License-Identifier: MIT
// Welford reductions (mean and m2, for variance and layer_norm) with vector accumulators. Over a
// single reduction range the elements are dealt to kLanes independent Welford streams, chunk by
// chunk: every stream sees one element per chunk, so all share one count and the per-lane
// update is a plain loop over arrays that LLVM vectorizes. The elements left after the last whole
// chunk form one more stream; at the end the streams are merged with Chan et al.'s pairwise
// formula. Multi-dimensional reduction ranges use one scalar Welford stream.
#include "codegen/cpu/loop_emitter.h"

namespace kiln::codegen {

namespace {

/// Streams per chunk: four vectors of 16 floats, so four independent dependency chains keep the
/// FP units busy while each waits on its previous update.
constexpr int kLanes = 64;

/// (count, mean, m2) of one Welford stream.
struct Moments {
    llvm::Value* n;
    llvm::Value* mean;
    llvm::Value* m2;
};

} // namespace

void Emitter::welfordStage(const LoopNode& n, const compiler::KernelStage& s) {
    DType t = n.body->dtype;
    llvm::Type* ty = typeOf(t);
    auto fconst = [&](double v) { return llvm::ConstantFP::get(ty, v); };
    size_t firstVar = m_k.outerRanges.size();

    // One element into a stream: n += 1; d = v - mean; mean += d / n; m2 += d * (v - mean).
    // `inverse` is 1 / n, computed once per chunk rather than divided per element.
    auto update = [&](llvm::Value* inverse, llvm::Value* meanPtr, llvm::Value* m2Ptr,
                      llvm::Value* v) {
        llvm::Value* mean = m_b.CreateLoad(ty, meanPtr);
        llvm::Value* d = m_b.CreateFSub(v, mean);
        llvm::Value* updated = m_b.CreateFAdd(mean, m_b.CreateFMul(d, inverse));
        m_b.CreateStore(updated, meanPtr);
        m_b.CreateStore(m_b.CreateFAdd(m_b.CreateLoad(ty, m2Ptr),
                                       m_b.CreateFMul(d, m_b.CreateFSub(v, updated))),
                        m2Ptr);
    };
    // Chan et al.: the moments of two streams together (a stream of count 0 leaves the other).
    auto merge = [&](const Moments& a, const Moments& b) {
        llvm::Value* total = m_b.CreateFAdd(a.n, b.n);
        llvm::Value* safe = m_b.CreateSelect(m_b.CreateFCmpOGT(total, fconst(0)), total, fconst(1));
        llvm::Value* delta = m_b.CreateFSub(b.mean, a.mean);
        llvm::Value* share = m_b.CreateFDiv(b.n, safe);
        llvm::Value* mean = m_b.CreateFAdd(a.mean, m_b.CreateFMul(delta, share));
        llvm::Value* cross =
            m_b.CreateFMul(m_b.CreateFMul(delta, delta), m_b.CreateFMul(a.n, share));
        llvm::Value* m2 = m_b.CreateFAdd(m_b.CreateFAdd(a.m2, b.m2), cross);
        return Moments{total, mean, m2};
    };
    // A fresh builder each time: the entry block grows (and may be terminated) as we emit.
    auto slot = [&](llvm::Type* type) -> llvm::Value* {
        llvm::IRBuilder<> entry(&m_fn->getEntryBlock(),
                                m_fn->getEntryBlock().getFirstInsertionPt());
        return entry.CreateAlloca(type);
    };

    Moments result;
    if (s.innerRanges.size() == 1) {
        llvm::Type* lanesTy = llvm::ArrayType::get(ty, kLanes);
        llvm::Value* means = slot(lanesTy);
        llvm::Value* m2s = slot(lanesTy);
        llvm::Value* chunkCount = slot(ty);
        loop(m_b.getInt64(0), m_b.getInt64(kLanes), 203, true, [&] {
            m_b.CreateStore(fconst(0),
                            m_b.CreateGEP(lanesTy, means, {m_b.getInt64(0), m_vars[203]}));
            m_b.CreateStore(fconst(0), m_b.CreateGEP(lanesTy, m2s, {m_b.getInt64(0), m_vars[203]}));
        });

        m_b.CreateStore(fconst(0), chunkCount);
        llvm::Value* size = index(s.innerRanges[0]);
        llvm::Value* chunks = m_b.CreateSDiv(size, m_b.getInt64(kLanes));
        int32_t chunkVar = 200, laneVar = 201;
        loop(m_b.getInt64(0), chunks, chunkVar, false, [&] {
            llvm::Value* count = m_b.CreateFAdd(m_b.CreateLoad(ty, chunkCount), fconst(1));
            m_b.CreateStore(count, chunkCount);
            llvm::Value* inverse = m_b.CreateFDiv(fconst(1), count);
            loop(m_b.getInt64(0), m_b.getInt64(kLanes), laneVar, true, [&] {
                llvm::Value* lane = m_vars[laneVar];
                m_vars[static_cast<int32_t>(firstVar)] =
                    m_b.CreateAdd(m_b.CreateMul(m_vars[chunkVar], m_b.getInt64(kLanes)), lane);
                llvm::Value* v = scalar(n.body);
                update(inverse, m_b.CreateGEP(lanesTy, means, {m_b.getInt64(0), lane}),
                       m_b.CreateGEP(lanesTy, m2s, {m_b.getInt64(0), lane}), v);
            });
        });
        // Every lane has the same count: merge them one by one (a loop, to keep the code small),
        // then the tail stream.
        llvm::Value* laneCount = m_b.CreateLoad(ty, chunkCount);
        llvm::Value* runN = slot(ty);
        llvm::Value* runMean = slot(ty);
        llvm::Value* runM2 = slot(ty);
        for (llvm::Value* p : {runN, runMean, runM2})
            m_b.CreateStore(fconst(0), p);
        loop(m_b.getInt64(0), m_b.getInt64(kLanes), 202, false, [&] {
            llvm::Value* lane = m_vars[202];
            Moments merged = merge(
                {m_b.CreateLoad(ty, runN), m_b.CreateLoad(ty, runMean), m_b.CreateLoad(ty, runM2)},
                {laneCount,
                 m_b.CreateLoad(ty, m_b.CreateGEP(lanesTy, means, {m_b.getInt64(0), lane})),
                 m_b.CreateLoad(ty, m_b.CreateGEP(lanesTy, m2s, {m_b.getInt64(0), lane}))});
            m_b.CreateStore(merged.n, runN);
            m_b.CreateStore(merged.mean, runMean);
            m_b.CreateStore(merged.m2, runM2);
        });
        result = {m_b.CreateLoad(ty, runN), m_b.CreateLoad(ty, runMean), m_b.CreateLoad(ty, runM2)};
        llvm::Value* tailMean = slot(ty);
        llvm::Value* tailM2 = slot(ty);
        llvm::Value* tailCount = slot(ty);
        m_b.CreateStore(fconst(0), tailMean);
        m_b.CreateStore(fconst(0), tailM2);
        m_b.CreateStore(fconst(0), tailCount);
        loop(m_b.CreateMul(chunks, m_b.getInt64(kLanes)), size, static_cast<int32_t>(firstVar),
             false, [&] {
                 llvm::Value* count = m_b.CreateFAdd(m_b.CreateLoad(ty, tailCount), fconst(1));
                 m_b.CreateStore(count, tailCount);
                 update(m_b.CreateFDiv(fconst(1), count), tailMean, tailM2, scalar(n.body));
             });
        result = merge(result, {m_b.CreateLoad(ty, tailCount), m_b.CreateLoad(ty, tailMean),
                                m_b.CreateLoad(ty, tailM2)});
    } else {
        llvm::Value* mean = slot(ty);
        llvm::Value* m2 = slot(ty);
        llvm::Value* count = slot(ty);
        for (llvm::Value* p : {mean, m2, count})
            m_b.CreateStore(fconst(0), p);
        loopNest(s.innerRanges, firstVar, [&] {
            llvm::Value* c = m_b.CreateFAdd(m_b.CreateLoad(ty, count), fconst(1));
            m_b.CreateStore(c, count);
            update(m_b.CreateFDiv(fconst(1), c), mean, m2, scalar(n.body));
        });
        result = {m_b.CreateLoad(ty, count), m_b.CreateLoad(ty, mean), m_b.CreateLoad(ty, m2)};
    }
    m_vars.erase(static_cast<int32_t>(firstVar));
    const compiler::Buffer& out = m_p.buffer(n.output);
    std::vector<Index> vars;
    for (size_t i = 0; i < n.ranges.size(); ++i)
        vars.push_back(compiler::loopVar(static_cast<int32_t>(i)));
    llvm::Value* offset = index(compiler::linearIndex(vars, out.strides, out.offset));
    storeElement(n.output, offset,
                 n.reduction == ReductionKind::WelfordMean ? result.mean : result.m2, t);
}

} // namespace kiln::codegen
