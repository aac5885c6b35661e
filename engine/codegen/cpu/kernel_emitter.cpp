// SPDX-License-Identifier: MIT
#include "codegen/cpu/loop_emitter.h"
#include "support/assert.h"

#include <limits>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>
#include <map>

namespace kiln::codegen {

void Emitter::pointwiseStage(const LoopNode& n, const compiler::KernelStage& s) {
    const compiler::Buffer& out = m_p.buffer(n.output);
    loopNest(s.innerRanges, m_k.outerRanges.size(), [&] {
        std::vector<Index> vars;
        for (size_t i = 0; i < n.ranges.size(); ++i)
            vars.push_back(compiler::loopVar(static_cast<int32_t>(i)));
        llvm::Value* offset = index(compiler::linearIndex(vars, out.strides, out.offset));
        storeElement(n.output, offset, scalar(n.body), n.body->dtype);
    });
}

void Emitter::reductionStage(const LoopNode& n, const compiler::KernelStage& s) {
    if (n.reduction == ReductionKind::WelfordMean || n.reduction == ReductionKind::WelfordM2)
        return welfordStage(n, s);
    DType t = n.body->dtype;
    llvm::Type* ty = typeOf(t);
    bool fp = tensor::isFloating(t);
    bool arg = n.reduction == ReductionKind::ArgMax || n.reduction == ReductionKind::ArgMin;
    // The identity of max (negative) or min: -inf/+inf, the type's extreme int, false/true.
    auto inf = [&](bool negative) -> llvm::Value* {
        if (fp) return llvm::ConstantFP::getInfinity(ty, negative);
        if (t == DType::Bool) return negative ? m_b.getFalse() : m_b.getTrue();
        unsigned bits = ty->getIntegerBitWidth();
        if (t == DType::UInt8)
            return llvm::ConstantInt::get(ty, negative ? llvm::APInt::getMinValue(bits)
                                                       : llvm::APInt::getMaxValue(bits));
        return llvm::ConstantInt::get(ty, negative ? llvm::APInt::getSignedMinValue(bits)
                                                   : llvm::APInt::getSignedMaxValue(bits));
    };
    // Floating sums accumulate in double, as the eager kernels do: a float accumulator loses
    // digits over millions of elements even in vector partial sums.
    const bool wideSum = fp && n.reduction == ReductionKind::Sum && t != DType::Float64;
    llvm::Type* accType = wideSum ? m_b.getDoubleTy() : ty;
    llvm::Value* init = nullptr;
    switch (n.reduction) {
    case ReductionKind::Sum:
        init = fp ? llvm::ConstantFP::get(accType, 0.0) : llvm::ConstantInt::get(ty, 0);
        break;
    case ReductionKind::Prod:
        init = fp ? llvm::ConstantFP::get(ty, 1.0) : llvm::ConstantInt::get(ty, 1);
        break;
    case ReductionKind::Max:
    case ReductionKind::ArgMax:
        init = inf(true);
        break;
    case ReductionKind::Min:
    case ReductionKind::ArgMin:
        init = inf(false);
        break;
    case ReductionKind::Any:
        init = m_b.getFalse();
        break;
    case ReductionKind::All:
        init = m_b.getTrue();
        break;
    case ReductionKind::WelfordMean:
    case ReductionKind::WelfordM2:
        KILN_ASSERT(false, "Welford reductions are emitted by welfordStage");
        break;
    }
    // Accumulators live in stack slots; SROA turns them into the loop's reduction phis.
    llvm::IRBuilder<> entry(&m_fn->getEntryBlock(), m_fn->getEntryBlock().getFirstInsertionPt());
    llvm::AllocaInst* acc = entry.CreateAlloca(accType);
    llvm::AllocaInst* best = entry.CreateAlloca(i64());
    m_b.CreateStore(init, acc);
    m_b.CreateStore(m_b.getInt64(0), best);
    size_t firstVar = m_k.outerRanges.size();
    loopNest(s.innerRanges, firstVar, [&] {
        llvm::Value* v = scalar(n.body);
        if (wideSum) v = m_b.CreateFPExt(v, accType);
        llvm::Value* a = m_b.CreateLoad(accType, acc);
        llvm::Value* r = nullptr;
        if (arg) {
            // First index of the extreme value; NaN counts as the extreme (PyTorch's rule).
            bool isMax = n.reduction == ReductionKind::ArgMax;
            llvm::Value* better = fp ? (isMax ? m_b.CreateFCmpUGT(v, a) : m_b.CreateFCmpULT(v, a))
                                  : t == DType::Bool || t == DType::UInt8
                                      ? (isMax ? m_b.CreateICmpUGT(v, a) : m_b.CreateICmpULT(v, a))
                                      : (isMax ? m_b.CreateICmpSGT(v, a) : m_b.CreateICmpSLT(v, a));
            if (fp) better = m_b.CreateAnd(better, m_b.CreateFCmpORD(a, a));
            std::vector<Index> rv;
            for (size_t i = 0; i < s.innerRanges.size(); ++i)
                rv.push_back(compiler::loopVar(static_cast<int32_t>(firstVar + i)));
            llvm::Value* flat = index(compiler::linearIndex(
                rv, compiler::contiguousStrides(s.innerRanges), compiler::constant(0)));
            m_b.CreateStore(m_b.CreateSelect(better, flat, m_b.CreateLoad(i64(), best)), best);
            r = m_b.CreateSelect(better, v, a);
        } else {
            switch (n.reduction) {
            case ReductionKind::Sum: {
                if (!fp) {
                    r = m_b.CreateAdd(a, v);
                    break;
                }
                auto* add = llvm::cast<llvm::Instruction>(m_b.CreateFAdd(a, v));
                llvm::FastMathFlags f;
                f.setAllowReassoc();
                f.setAllowContract();
                add->setFastMathFlags(f); // lets the loop vectorizer keep vector partial sums
                r = add;
                break;
            }
            case ReductionKind::Prod: {
                if (!fp) {
                    r = m_b.CreateMul(a, v);
                    break;
                }
                auto* mul = llvm::cast<llvm::Instruction>(m_b.CreateFMul(a, v));
                llvm::FastMathFlags f;
                f.setAllowReassoc();
                mul->setFastMathFlags(f);
                r = mul;
                break;
            }
            case ReductionKind::Max:
                r = maxMin(true, a, v, t);
                break;
            case ReductionKind::Min:
                r = maxMin(false, a, v, t);
                break;
            case ReductionKind::Any:
                r = m_b.CreateOr(a, v);
                break;
            case ReductionKind::All:
                r = m_b.CreateAnd(a, v);
                break;
            default:
                break;
            }
        }
        m_b.CreateStore(r, acc);
    });
    const compiler::Buffer& out = m_p.buffer(n.output);
    std::vector<Index> vars;
    for (size_t i = 0; i < n.ranges.size(); ++i)
        vars.push_back(compiler::loopVar(static_cast<int32_t>(i)));
    llvm::Value* offset = index(compiler::linearIndex(vars, out.strides, out.offset));
    if (arg) {
        storeElement(n.output, offset, m_b.CreateLoad(i64(), best), DType::Int64);
    } else {
        llvm::Value* result = m_b.CreateLoad(accType, acc);
        if (wideSum) result = m_b.CreateFPTrunc(result, ty);
        storeElement(n.output, offset, result, t);
    }
}

bool Emitter::isColumnSum() const {
    if (m_k.kind != compiler::ScheduledKernel::Kind::Reduction || m_k.stages.size() != 1 ||
        m_k.outerRanges.empty())
        return false;
    const compiler::KernelStage& s = m_k.stages[0];
    const LoopNode& n = m_p.nodes.at(static_cast<size_t>(s.node));
    if (n.reduction != ReductionKind::Sum || !tensor::isFloating(n.body->dtype) ||
        n.ranges.size() != m_k.outerRanges.size() || s.innerRanges.empty())
        return false;
    const auto column = static_cast<int32_t>(m_k.outerRanges.size() - 1);
    const auto row = static_cast<int32_t>(m_k.outerRanges.size() + s.innerRanges.size() - 1);
    std::vector<const ScalarNode*> loads;
    compiler::collectLoads(n.body, loads);
    bool any = false;
    for (const ScalarNode* l : loads) {
        if (!l->operands.empty()) return false; // indirect loads: keep the plain loop
        // Contiguous (or constant) along the column; the row index may be anything (a
        // flattened batch of rows is `(r // T) * stride + (r % T) * C`).
        Index c = compiler::coefficientOf(l->index, column);
        int64_t step = 0;
        if (!c || !compiler::isConstant(c, &step) || (step != 0 && step != 1)) return false;
        Index r = compiler::coefficientOf(l->index, row);
        any = any || (step == 1 && !(r && compiler::isOne(r)));
    }
    return any;
}

void Emitter::columnSums(llvm::Value* lo, llvm::Value* hi, int32_t var) {
    constexpr int64_t kBlock = 64;
    const compiler::KernelStage& s = m_k.stages[0];
    const LoopNode& n = m_p.nodes.at(static_cast<size_t>(s.node));
    const DType t = n.body->dtype;
    // Accumulated in double, as reductionStage's sums are.
    llvm::Type* acc = t == DType::Float64 ? typeOf(t) : m_b.getDoubleTy();
    llvm::IRBuilder<> entry(&m_fn->getEntryBlock(), m_fn->getEntryBlock().getFirstInsertionPt());
    llvm::AllocaInst* sums = entry.CreateAlloca(acc, entry.getInt64(kBlock));
    const int32_t blockVar = 1000, laneVar = 1001;
    llvm::Value* blocks = m_b.CreateSDiv(
        m_b.CreateAdd(m_b.CreateSub(hi, lo), m_b.getInt64(kBlock - 1)), m_b.getInt64(kBlock));
    loop(m_b.getInt64(0), blocks, blockVar, false, [&] {
        llvm::Value* start =
            m_b.CreateAdd(lo, m_b.CreateMul(m_vars[blockVar], m_b.getInt64(kBlock)));
        llvm::Value* width = m_b.CreateSub(hi, start);
        llvm::Value* big = m_b.getInt64(kBlock);
        width = m_b.CreateSelect(m_b.CreateICmpSLT(width, big), width, big);
        auto lanes = [&](bool innermost, const std::function<void(llvm::Value*)>& body) {
            loop(m_b.getInt64(0), width, laneVar, innermost, [&] {
                m_vars[var] = m_b.CreateAdd(start, m_vars[laneVar]);
                body(m_b.CreateGEP(acc, sums, m_vars[laneVar]));
            });
        };
        lanes(true,
              [&](llvm::Value* slot) { m_b.CreateStore(llvm::ConstantFP::get(acc, 0), slot); });
        const size_t firstVar = m_k.outerRanges.size();
        std::function<void(size_t)> rows = [&](size_t i) {
            if (i == s.innerRanges.size())
                return lanes(true, [&](llvm::Value* slot) {
                    llvm::Value* v = scalar(n.body);
                    if (v->getType() != acc) v = m_b.CreateFPExt(v, acc);
                    m_b.CreateStore(m_b.CreateFAdd(m_b.CreateLoad(acc, slot), v), slot);
                });
            loop(m_b.getInt64(0), index(s.innerRanges[i]), static_cast<int32_t>(firstVar + i),
                 false, [&] { rows(i + 1); });
        };
        rows(0);
        const compiler::Buffer& out = m_p.buffer(n.output);
        lanes(true, [&](llvm::Value* slot) {
            std::vector<Index> vars;
            for (size_t i = 0; i < n.ranges.size(); ++i)
                vars.push_back(compiler::loopVar(static_cast<int32_t>(i)));
            llvm::Value* offset = index(compiler::linearIndex(vars, out.strides, out.offset));
            llvm::Value* v = m_b.CreateLoad(acc, slot);
            if (acc != typeOf(t)) v = m_b.CreateFPTrunc(v, typeOf(t));
            storeElement(n.output, offset, v, t);
        });
    });
    m_vars.erase(var);
}

void Emitter::stage(const compiler::KernelStage& s) {
    const LoopNode& n = m_p.nodes.at(static_cast<size_t>(s.node));
    if (n.kind == LoopNode::Kind::Reduction)
        reductionStage(n, s);
    else
        pointwiseStage(n, s);
}

std::pair<llvm::Value*, llvm::Value*> Emitter::beginFunction(const std::string& symbol,
                                                             const std::vector<int32_t>& params) {
    // body(ptr noalias b0, ..., ptr syms, i64 begin, i64 end): noalias arguments let the
    // vectorizer skip runtime alias checks; the entry point unpacks the buffer array into it.
    llvm::Type* ptr = m_b.getPtrTy();
    std::vector<llvm::Type*> argTypes(params.size(), ptr);
    argTypes.push_back(ptr);
    argTypes.push_back(i64());
    argTypes.push_back(i64());
    auto* bodyType = llvm::FunctionType::get(m_b.getVoidTy(), argTypes, false);
    m_fn = llvm::Function::Create(bodyType, llvm::Function::InternalLinkage, symbol + ".body", m_m);
    m_fn->addFnAttr(llvm::Attribute::AlwaysInline);
    m_fn->addFnAttr(llvm::Attribute::NoUnwind);
    for (size_t i = 0; i < params.size(); ++i) {
        m_fn->addParamAttr(static_cast<unsigned>(i), llvm::Attribute::NoAlias);
        m_bufferArgs[params[i]] = m_fn->getArg(static_cast<unsigned>(i));
    }
    llvm::Value* syms = m_fn->getArg(static_cast<unsigned>(params.size()));
    m_b.SetInsertPoint(llvm::BasicBlock::Create(m_ctx, "entry", m_fn));
    for (size_t i = 0; i < m_p.symbolNames.size(); ++i)
        m_symbols.push_back(m_b.CreateLoad(i64(), m_b.CreateConstGEP1_64(i64(), syms, i)));
    return {m_fn->getArg(static_cast<unsigned>(params.size() + 1)),
            m_fn->getArg(static_cast<unsigned>(params.size() + 2))};
}

void Emitter::finishFunction(const std::string& symbol, const std::vector<int32_t>& params) {
    m_b.CreateRetVoid();
    llvm::Type* ptr = m_b.getPtrTy();
    auto* entryType = llvm::FunctionType::get(m_b.getVoidTy(), {ptr, ptr, i64(), i64()}, false);
    llvm::Function* entryFn =
        llvm::Function::Create(entryType, llvm::Function::ExternalLinkage, symbol, m_m);
    entryFn->addFnAttr(llvm::Attribute::NoUnwind);
    llvm::IRBuilder<> eb(llvm::BasicBlock::Create(m_ctx, "entry", entryFn));
    std::vector<llvm::Value*> args;
    for (size_t i = 0; i < params.size(); ++i)
        args.push_back(eb.CreateLoad(ptr, eb.CreateConstGEP1_64(ptr, entryFn->getArg(0), i)));
    args.push_back(entryFn->getArg(1));
    args.push_back(entryFn->getArg(2));
    args.push_back(entryFn->getArg(3));
    eb.CreateCall(m_fn, args);
    eb.CreateRetVoid();
}

std::vector<int32_t> Emitter::emit(const std::string& symbol) {
    std::vector<int32_t> params;
    auto note = [&](int32_t id) {
        if (std::find(params.begin(), params.end(), id) == params.end()) params.push_back(id);
    };
    for (const compiler::KernelStage& s : m_k.stages) {
        const LoopNode& n = m_p.nodes.at(static_cast<size_t>(s.node));
        for (int32_t r : n.reads())
            note(r);
        note(n.output);
        std::vector<const ScalarNode*> loads;
        if (n.body) compiler::collectLoads(n.body, loads);
        for (const ScalarNode* l : loads)
            if (!l->operands.empty() && m_p.statusBuffer >= 0) note(m_p.statusBuffer);
    }
    auto [begin, end] = beginFunction(symbol, params);
    auto stages = [&] {
        for (const compiler::KernelStage& s : m_k.stages)
            stage(s);
    };
    const auto& outer = m_k.outerRanges;
    const bool columnSum = isColumnSum();
    if (outer.empty()) {
        stages();
    } else if (columnSum && outer.size() == 1) {
        columnSums(begin, end, 0);
    } else if (columnSum) {
        loop(begin, end, 0, false, [&] {
            std::function<void(size_t)> level = [&](size_t i) {
                if (i + 1 == outer.size())
                    return columnSums(m_b.getInt64(0), index(outer[i]), static_cast<int32_t>(i));
                loop(m_b.getInt64(0), index(outer[i]), static_cast<int32_t>(i), false,
                     [&] { level(i + 1); });
            };
            level(1);
        });
    } else {
        loop(begin, end, 0,
             outer.size() == 1 && m_k.kind == compiler::ScheduledKernel::Kind::Pointwise, [&] {
                 std::vector<Index> rest(outer.begin() + 1, outer.end());
                 std::function<void(size_t)> level = [&](size_t i) {
                     if (i == rest.size()) return stages();
                     bool innermost = i + 1 == rest.size() &&
                                      m_k.kind == compiler::ScheduledKernel::Kind::Pointwise;
                     loop(m_b.getInt64(0), index(rest[i]), static_cast<int32_t>(i + 1), innermost,
                          [&] { level(i + 1); });
                 };
                 level(0);
             });
    }
    finishFunction(symbol, params);
    return params;
}

std::vector<int32_t> emitKernel(llvm::Module& module, const std::string& symbol,
                                const compiler::LoopProgram& program,
                                const compiler::ScheduledKernel& kernel, const LoopTuning& tuning,
                                const EmitTarget& target) {
    return Emitter(module, program, kernel, tuning, target).emit(symbol);
}

} // namespace kiln::codegen
