// SPDX-License-Identifier: MIT
// Kiln's matrix-product template: C = A @ B (+ bias) with a fused pointwise epilogue. Each call
// of the kernel computes column blocks [begin, end) of tileN columns; inside, row blocks of tileM
// rows accumulate over K in tileM x tileN/V vector registers (V lanes), with B read as
// contiguous rows (the runtime packs it when it is not), then the tile goes through the
// epilogue on its way to memory. Column blocks outermost keep a K x tileN panel of B in cache
// while every row block streams past it.
#include "codegen/cpu/loop_emitter.h"
#include "support/assert.h"

#include <llvm/IR/Intrinsics.h>

namespace kiln::codegen {

namespace {

int64_t constantOf(const Index& e) {
    int64_t v = 0;
    KILN_ASSERT(compiler::isConstant(e, &v), "templates need static sizes");
    return v;
}

class TemplateEmitter final : public Emitter {
public:
    using Emitter::Emitter;

    std::vector<int32_t> emitTemplate(const std::string& symbol);

private:
    void tile(llvm::Value* m0, llvm::Value* n0);
    void epilogue(llvm::Value* m0, llvm::Value* n0, llvm::AllocaInst* tileValues);

    const LoopNode* m_mm = nullptr;
    const LoopNode* m_epilogue = nullptr;
    const compiler::BufferView* m_a = nullptr;
    const compiler::BufferView* m_bView = nullptr;
    const compiler::BufferView* m_bias = nullptr;
    int64_t m_M = 0, m_N = 0, m_K = 0;
    int64_t m_paddedM = 0, m_paddedN = 0;
    int m_tileM = 0, m_tileN = 0, m_lanes = 16;
    std::vector<llvm::AllocaInst*> m_acc; ///< tileM x tileN/lanes vector accumulators
};

std::vector<int32_t> TemplateEmitter::emitTemplate(const std::string& symbol) {
    m_mm = &m_p.nodes.at(static_cast<size_t>(m_k.stages.at(0).node));
    if (m_k.stages.size() > 1) m_epilogue = &m_p.nodes.at(static_cast<size_t>(m_k.stages[1].node));
    bool addmm = m_mm->externName == "addmm";
    m_a = &m_mm->operands.at(addmm ? 1 : 0);
    m_bView = &m_mm->operands.at(addmm ? 2 : 1);
    // beta == 0: the bias is not read at all (NaN in it must not leak), as BLAS and eager.
    if (addmm && m_mm->beta != 0) m_bias = &m_mm->operands.at(0);
    m_M = constantOf(m_a->sizes[0]);
    m_K = constantOf(m_a->sizes[1]);
    m_N = constantOf(m_bView->sizes[1]);
    m_tileM = m_k.tileM;
    m_tileN = m_k.tileN;
    m_lanes = std::min(m_tileN, m_target.avx512 ? 16 : 8);
    KILN_ASSERT(m_tileN % m_lanes == 0, "a template tile holds whole vectors");
    // shape_padding: sizes the tile does not divide are padded (B's packed rows to paddedN
    // with zeros; A's extra rows read its last row) and the epilogue skips the padding.
    m_paddedM = (m_M + m_tileM - 1) / m_tileM * m_tileM;
    m_paddedN = (m_N + m_tileN - 1) / m_tileN * m_tileN;

    // Parameters: A, B (contiguous rows), bias, the output, then what the epilogue reads.
    std::vector<int32_t> params = {m_a->buffer, m_bView->buffer};
    if (m_bias) params.push_back(m_bias->buffer);
    int32_t out = m_epilogue ? m_epilogue->output : m_mm->output;
    params.push_back(out);
    if (m_epilogue)
        for (int32_t r : m_epilogue->reads())
            if (r != m_mm->output && std::find(params.begin(), params.end(), r) == params.end())
                params.push_back(r);
    auto [begin, end] = beginFunction(symbol, params);
    llvm::Type* vec = llvm::FixedVectorType::get(m_b.getFloatTy(), static_cast<unsigned>(m_lanes));
    {
        llvm::IRBuilder<> entry(&m_fn->getEntryBlock(),
                                m_fn->getEntryBlock().getFirstInsertionPt());
        for (int i = 0; i < m_tileM * (m_tileN / m_lanes); ++i)
            m_acc.push_back(entry.CreateAlloca(vec));
    }
    loop(begin, end, 100, false, [&] {
        llvm::Value* n0 = m_b.CreateMul(m_vars[100], m_b.getInt64(static_cast<uint64_t>(m_tileN)));
        loop(m_b.getInt64(0), m_b.getInt64(static_cast<uint64_t>(m_paddedM / m_tileM)), 101, false,
             [&] {
                 tile(m_b.CreateMul(m_vars[101], m_b.getInt64(static_cast<uint64_t>(m_tileM))), n0);
             });
    });
    finishFunction(symbol, params);
    return params;
}

void TemplateEmitter::tile(llvm::Value* m0, llvm::Value* n0) {
    llvm::Type* f32 = m_b.getFloatTy();
    llvm::Type* vec = m_acc[0]->getAllocatedType();
    int vectors = m_tileN / m_lanes;
    for (llvm::AllocaInst* a : m_acc)
        m_b.CreateStore(llvm::Constant::getNullValue(vec), a);
    llvm::Value* a = m_bufferArgs.at(m_a->buffer);
    llvm::Value* b = m_bufferArgs.at(m_bView->buffer);
    int64_t sa0 = constantOf(m_a->strides[0]), sa1 = constantOf(m_a->strides[1]);
    int64_t aOffset = constantOf(m_a->offset);
    loop(m_b.getInt64(0), m_b.getInt64(static_cast<uint64_t>(m_K)), 102, false, [&] {
        llvm::Value* k = m_vars[102];
        std::vector<llvm::Value*> bRow;
        for (int j = 0; j < vectors; ++j) {
            llvm::Value* at =
                m_b.CreateAdd(m_b.CreateMul(k, m_b.getInt64(static_cast<uint64_t>(m_paddedN))),
                              m_b.CreateAdd(n0, m_b.getInt64(static_cast<uint64_t>(j * m_lanes))));
            bRow.push_back(m_b.CreateAlignedLoad(vec, m_b.CreateGEP(f32, b, at), llvm::Align(4)));
        }
        for (int i = 0; i < m_tileM; ++i) {
            llvm::Value* row = m_b.CreateAdd(m0, m_b.getInt64(static_cast<uint64_t>(i)));
            if (m_paddedM != m_M)
                row = m_b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, row,
                                                m_b.getInt64(static_cast<uint64_t>(m_M - 1)));
            llvm::Value* at = m_b.CreateAdd(
                m_b.CreateAdd(m_b.CreateMul(row, m_b.getInt64(static_cast<uint64_t>(sa0))),
                              m_b.CreateMul(k, m_b.getInt64(static_cast<uint64_t>(sa1)))),
                m_b.getInt64(static_cast<uint64_t>(aOffset)));
            llvm::Value* splat = m_b.CreateVectorSplat(
                static_cast<unsigned>(m_lanes), m_b.CreateLoad(f32, m_b.CreateGEP(f32, a, at)));
            for (int j = 0; j < vectors; ++j) {
                llvm::AllocaInst* acc = m_acc[static_cast<size_t>(i * vectors + j)];
                llvm::Value* sum = m_b.CreateIntrinsic(
                    llvm::Intrinsic::fmuladd, {vec},
                    {splat, bRow[static_cast<size_t>(j)], m_b.CreateLoad(vec, acc)});
                m_b.CreateStore(sum, acc);
            }
        }
    });
    // The tile leaves the registers through a stack array the epilogue loop reads.
    llvm::IRBuilder<> entry(&m_fn->getEntryBlock(), m_fn->getEntryBlock().getFirstInsertionPt());
    llvm::AllocaInst* tileValues =
        entry.CreateAlloca(llvm::ArrayType::get(f32, static_cast<uint64_t>(m_tileM * m_tileN)));
    for (int i = 0; i < m_tileM; ++i)
        for (int j = 0; j < vectors; ++j) {
            llvm::Value* at = m_b.CreateConstGEP1_64(
                f32, tileValues, static_cast<uint64_t>(i * m_tileN + j * m_lanes));
            m_b.CreateAlignedStore(m_b.CreateLoad(vec, m_acc[static_cast<size_t>(i * vectors + j)]),
                                   at, llvm::Align(4));
        }
    epilogue(m0, n0, tileValues);
}

void TemplateEmitter::epilogue(llvm::Value* m0, llvm::Value* n0, llvm::AllocaInst* tileValues) {
    llvm::Type* f32 = m_b.getFloatTy();
    loop(m_b.getInt64(0), m_b.getInt64(static_cast<uint64_t>(m_tileM)), 103, false, [&] {
        loop(m_b.getInt64(0), m_b.getInt64(static_cast<uint64_t>(m_tileN)), 104, true, [&] {
            llvm::Value* i = m_vars[103];
            llvm::Value* j = m_vars[104];
            llvm::Value* m = m_b.CreateAdd(m0, i);
            llvm::Value* n = m_b.CreateAdd(n0, j);
            llvm::BasicBlock* skip = nullptr;
            if (m_paddedM != m_M || m_paddedN != m_N) {
                // Padding rows and columns are computed but never stored.
                llvm::Value* inside =
                    m_b.CreateAnd(m_b.CreateICmpSLT(m, m_b.getInt64(static_cast<uint64_t>(m_M))),
                                  m_b.CreateICmpSLT(n, m_b.getInt64(static_cast<uint64_t>(m_N))));
                llvm::BasicBlock* store = llvm::BasicBlock::Create(m_ctx, "tile.store", m_fn);
                skip = llvm::BasicBlock::Create(m_ctx, "tile.skip", m_fn);
                m_b.CreateCondBr(inside, store, skip);
                m_b.SetInsertPoint(store);
            }
            auto closeGuard = [&] {
                if (!skip) return;
                m_b.CreateBr(skip);
                m_b.SetInsertPoint(skip);
            };
            llvm::Value* v = m_b.CreateLoad(
                f32, m_b.CreateGEP(
                         f32, tileValues,
                         m_b.CreateAdd(
                             m_b.CreateMul(i, m_b.getInt64(static_cast<uint64_t>(m_tileN))), j)));
            if (m_mm->alpha != 1) v = m_b.CreateFMul(v, llvm::ConstantFP::get(f32, m_mm->alpha));
            m_vars[0] = m;
            m_vars[1] = n;
            if (m_bias) {
                // The bias broadcasts against [M, N]: its own dims align to the right.
                size_t rank = m_bias->sizes.size();
                std::vector<Index> idx;
                if (rank == 2) idx.push_back(compiler::loopVar(0));
                idx.push_back(compiler::loopVar(1));
                std::vector<Index> strides(m_bias->strides.begin(), m_bias->strides.end());
                for (size_t d = 0; d < rank; ++d)
                    if (constantOf(m_bias->sizes[d]) == 1) strides[d] = compiler::constant(0);
                llvm::Value* bias = loadElement(
                    m_bias->buffer, index(compiler::linearIndex(idx, strides, m_bias->offset)));
                if (m_mm->beta != 1)
                    bias = m_b.CreateFMul(bias, llvm::ConstantFP::get(f32, m_mm->beta));
                v = m_b.CreateFAdd(v, bias);
            }
            std::vector<Index> vars = {compiler::loopVar(0), compiler::loopVar(1)};
            if (!m_epilogue) {
                const compiler::Buffer& out = m_p.buffer(m_mm->output);
                storeElement(m_mm->output,
                             index(compiler::linearIndex(vars, out.strides, out.offset)), v,
                             DType::Float32);
                closeGuard();
                return;
            }
            m_overrideBuffer = m_mm->output;
            m_overrideValue = v;
            llvm::Value* result = scalar(m_epilogue->body);
            m_overrideBuffer = -1;
            const compiler::Buffer& out = m_p.buffer(m_epilogue->output);
            storeElement(m_epilogue->output,
                         index(compiler::linearIndex(vars, out.strides, out.offset)), result,
                         m_epilogue->body->dtype);
            closeGuard();
        });
    });
    m_vars.erase(0);
    m_vars.erase(1);
}

} // namespace

std::vector<int32_t> emitTemplate(llvm::Module& module, const std::string& symbol,
                                  const compiler::LoopProgram& program,
                                  const compiler::ScheduledKernel& kernel,
                                  const EmitTarget& target) {
    return TemplateEmitter(module, program, kernel, LoopTuning{}, target).emitTemplate(symbol);
}

} // namespace kiln::codegen
