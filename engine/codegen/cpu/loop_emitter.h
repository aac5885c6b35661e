// SPDX-License-Identifier: MIT
/// \file
/// Internal: the LLVM IR builder shared by the kernel emitters (fused loop kernels in
/// kernel_emitter.cpp, matrix-product templates in template_emitter.cpp): scalar expressions of
/// the loop IR, loads and stores with dtype conversion, vector math calls, and loops.
#pragma once

#include "codegen/cpu/kernel_emitter.h"

#include <functional>
#include <llvm/IR/IRBuilder.h>
#include <map>

namespace kiln::codegen {

using compiler::DType;
using compiler::Index;
using compiler::IndexNode;
using compiler::LoopNode;
using compiler::ReductionKind;
using compiler::Scalar;
using compiler::ScalarNode;
using compiler::ScalarOp;

/// Builds one kernel function's IR; subclasses emit the kernel's loop structure.
class Emitter {
public:
    Emitter(llvm::Module& m, const compiler::LoopProgram& p, const compiler::ScheduledKernel& k,
            const LoopTuning& tuning, const EmitTarget& target)
        : m_m(m)
        , m_ctx(m.getContext())
        , m_b(m_ctx)
        , m_p(p)
        , m_k(k)
        , m_tuning(tuning)
        , m_target(target) {}

    std::vector<int32_t> emit(const std::string& symbol);

protected:
    /// Opens the kernel's body function over `params` (buffer ids) and returns its begin/end
    /// arguments; finishFunction closes it and adds the exported entry point `symbol`.
    std::pair<llvm::Value*, llvm::Value*> beginFunction(const std::string& symbol,
                                                        const std::vector<int32_t>& params);
    void finishFunction(const std::string& symbol, const std::vector<int32_t>& params);

    llvm::Type* i64() { return m_b.getInt64Ty(); }
    llvm::Type* typeOf(DType t);
    llvm::Type* storageType(DType t);

    llvm::Value* index(const Index& e);
    llvm::Value* scalar(const Scalar& s);
    llvm::Value* loadElement(int32_t buffer, llvm::Value* offset);
    llvm::Value* indirectOffset(const ScalarNode& load);
    void storeElement(int32_t buffer, llvm::Value* offset, llvm::Value* v, DType from);
    llvm::Value* convert(llvm::Value* v, DType from, DType to);
    llvm::Value* mathCall(const char* base, llvm::Value* x, DType t);
    llvm::Value* unaryOp(ScalarOp op, llvm::Value* x, DType t);
    llvm::Value* binaryOp(ScalarOp op, llvm::Value* a, llvm::Value* b, DType t);
    llvm::Value* unsignedCompare(ScalarOp op, llvm::Value* a, llvm::Value* b);
    llvm::Value* maxMin(bool isMax, llvm::Value* a, llvm::Value* b, DType t);
    /// Python's a % b (ScalarOp::Mod), integer or floating.
    llvm::Value* remainder(llvm::Value* a, llvm::Value* b, DType t);

    /// Emits `for v in [begin, end)`; `body` runs with the induction variable bound to `var`.
    void loop(llvm::Value* begin, llvm::Value* end, int32_t var, bool innermost,
              const std::function<void()>& body);
    void loopNest(const std::vector<Index>& ranges, size_t firstVar,
                  const std::function<void()>& body);
    void stage(const compiler::KernelStage& s);
    void pointwiseStage(const LoopNode& n, const compiler::KernelStage& s);
    void reductionStage(const LoopNode& n, const compiler::KernelStage& s);
    void welfordStage(const LoopNode& n, const compiler::KernelStage& s);
    /// A sum over rows of what is contiguous along the kernel's last outer dim (a bias's or a
    /// norm weight's gradient): reducing one output at a time would read memory with the row
    /// stride, so outputs are summed a block at a time, the block's loop innermost.
    bool isColumnSum() const;
    void columnSums(llvm::Value* lo, llvm::Value* hi, int32_t var);
    llvm::MDNode* loopMetadata(bool innermost);

    llvm::Module& m_m;
    llvm::LLVMContext& m_ctx;
    llvm::IRBuilder<> m_b;
    const compiler::LoopProgram& m_p;
    const compiler::ScheduledKernel& m_k;
    LoopTuning m_tuning;
    EmitTarget m_target;
    llvm::Function* m_fn = nullptr;
    std::map<int32_t, llvm::Value*> m_bufferArgs;
    std::vector<llvm::Value*> m_symbols;
    std::map<int32_t, llvm::Value*> m_vars;
    std::map<const ScalarNode*, llvm::Value*> m_memo;
    /// Loads of this buffer read m_overrideValue instead (a template's epilogue reads the
    /// product from registers, not from the buffer it would have been stored in).
    int32_t m_overrideBuffer = -1;
    llvm::Value* m_overrideValue = nullptr;
};

} // namespace kiln::codegen
