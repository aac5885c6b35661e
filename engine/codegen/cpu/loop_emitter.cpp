// SPDX-License-Identifier: MIT
// Scalar expressions, loads/stores and loops: the IR building blocks of every kernel.
#include "codegen/cpu/loop_emitter.h"

#include "codegen/cpu/random_ir.h"
#include "support/assert.h"

#include <limits>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>
#include <map>

namespace kiln::codegen {

namespace {

/// uint8 is the one unsigned integer type: its i8 values divide, compare, widen and convert
/// as unsigned (LLVM's integers carry no sign; the instruction says).
bool isUnsigned(DType t) {
    return t == DType::UInt8;
}

} // namespace

llvm::Type* Emitter::typeOf(DType t) {
    switch (t) {
    case DType::Bool:
        return m_b.getInt1Ty();
    case DType::UInt8:
    case DType::Int8:
        return m_b.getInt8Ty();
    case DType::Int16:
        return m_b.getInt16Ty();
    case DType::Int32:
        return m_b.getInt32Ty();
    case DType::Int64:
        return m_b.getInt64Ty();
    case DType::Float64:
        return m_b.getDoubleTy();
    default:
        return m_b.getFloatTy();
    }
}

llvm::Type* Emitter::storageType(DType t) {
    switch (t) {
    case DType::Bool:
        return m_b.getInt8Ty();
    case DType::Float16:
        return m_b.getHalfTy();
    case DType::BFloat16:
        return m_b.getInt16Ty();
    default:
        return typeOf(t);
    }
}

llvm::Value* Emitter::index(const Index& e) {
    switch (e->kind) {
    case IndexNode::Kind::Const:
        return m_b.getInt64(static_cast<uint64_t>(e->value));
    case IndexNode::Kind::Var: {
        auto it = m_vars.find(static_cast<int32_t>(e->value));
        KILN_ASSERT(it != m_vars.end(), "index uses a loop variable outside its loop");
        return it->second;
    }
    case IndexNode::Kind::Sym:
        return m_symbols.at(static_cast<size_t>(e->value));
    case IndexNode::Kind::Add:
        return m_b.CreateAdd(index(e->lhs), index(e->rhs));
    case IndexNode::Kind::Mul:
        return m_b.CreateMul(index(e->lhs), index(e->rhs));
    case IndexNode::Kind::FloorDiv:
        return m_b.CreateSDiv(index(e->lhs), index(e->rhs));
    case IndexNode::Kind::Mod:
        return m_b.CreateSRem(index(e->lhs), index(e->rhs));
    }
    return nullptr;
}

llvm::Value* Emitter::indirectOffset(const ScalarNode& s) {
    // The position is checked, not trusted: outside [0, bound) the status buffer says so (the
    // runtime raises IndexError after the kernel) and the read goes to position 0 instead.
    llvm::Value* position = scalar(s.operands[0]);
    llvm::Value* bound = index(s.indirectBound);
    llvm::Value* inside = m_b.CreateAnd(m_b.CreateICmpSGE(position, m_b.getInt64(0)),
                                        m_b.CreateICmpSLT(position, bound));
    if (m_p.statusBuffer >= 0) {
        llvm::Value* status = m_bufferArgs.at(m_p.statusBuffer);
        llvm::Value* flag = m_b.CreateZExt(m_b.CreateNot(inside), i64());
        m_b.CreateStore(m_b.CreateOr(m_b.CreateLoad(i64(), status), flag), status);
    }
    llvm::Value* clamped = m_b.CreateSelect(inside, position, m_b.getInt64(0));
    return m_b.CreateAdd(index(s.index), m_b.CreateMul(clamped, index(s.indirectStride)));
}

llvm::Value* Emitter::loadElement(int32_t buffer, llvm::Value* offset) {
    const compiler::Buffer& b = m_p.buffer(buffer);
    llvm::Type* st = storageType(b.dtype);
    llvm::Value* ptr = m_b.CreateGEP(st, m_bufferArgs.at(buffer), offset);
    llvm::Value* raw = m_b.CreateLoad(st, ptr);
    switch (b.dtype) {
    case DType::Bool:
        return m_b.CreateICmpNE(raw, m_b.getInt8(0));
    case DType::Float16:
        return m_b.CreateFPExt(raw, m_b.getFloatTy());
    case DType::BFloat16: {
        llvm::Value* wide = m_b.CreateShl(m_b.CreateZExt(raw, m_b.getInt32Ty()), 16);
        return m_b.CreateBitCast(wide, m_b.getFloatTy());
    }
    default:
        return raw;
    }
}

void Emitter::storeElement(int32_t buffer, llvm::Value* offset, llvm::Value* v, DType from) {
    const compiler::Buffer& b = m_p.buffer(buffer);
    DType compute = compiler::computeType(b.dtype);
    v = convert(v, from, compute);
    llvm::Type* st = storageType(b.dtype);
    switch (b.dtype) {
    case DType::Bool:
        v = m_b.CreateZExt(v, m_b.getInt8Ty());
        break;
    case DType::Float16:
        v = m_b.CreateFPTrunc(v, m_b.getHalfTy());
        break;
    case DType::BFloat16: {
        // Round to nearest even, NaN stays a (quiet) NaN: what PyTorch's conversion does.
        llvm::Value* bits = m_b.CreateBitCast(v, m_b.getInt32Ty());
        llvm::Value* lsb = m_b.CreateAnd(m_b.CreateLShr(bits, 16), m_b.getInt32(1));
        llvm::Value* rounded = m_b.CreateAdd(bits, m_b.CreateAdd(lsb, m_b.getInt32(0x7fff)));
        llvm::Value* half = m_b.CreateTrunc(m_b.CreateLShr(rounded, 16), m_b.getInt16Ty());
        llvm::Value* nan = m_b.CreateFCmpUNO(v, v);
        v = m_b.CreateSelect(nan, m_b.getInt16(0x7fc0), half);
        break;
    }
    default:
        break;
    }
    m_b.CreateStore(v, m_b.CreateGEP(st, m_bufferArgs.at(buffer), offset));
}

llvm::Value* Emitter::convert(llvm::Value* v, DType from, DType to) {
    from = compiler::computeType(from);
    to = compiler::computeType(to);
    if (from == to) return v;
    llvm::Type* t = typeOf(to);
    bool fromFloat = tensor::isFloating(from), toFloat = tensor::isFloating(to);
    if (to == DType::Bool)
        return fromFloat ? m_b.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0))
                         : m_b.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
    if (from == DType::Bool) return toFloat ? m_b.CreateUIToFP(v, t) : m_b.CreateZExt(v, t);
    if (fromFloat && toFloat) return m_b.CreateFPCast(v, t);
    if (fromFloat) {
        // As the eager cast (tensor::floatToInteger): uint8 through int64, int8 and int16
        // through int32, then the low bits.
        unsigned bits = t->getIntegerBitWidth();
        if (bits >= 32) return m_b.CreateFPToSI(v, t);
        llvm::Type* wide = to == DType::UInt8 ? m_b.getInt64Ty() : m_b.getInt32Ty();
        return m_b.CreateTrunc(m_b.CreateFPToSI(v, wide), t);
    }
    if (toFloat) return isUnsigned(from) ? m_b.CreateUIToFP(v, t) : m_b.CreateSIToFP(v, t);
    return isUnsigned(from) ? m_b.CreateZExtOrTrunc(v, t) : m_b.CreateSExtOrTrunc(v, t);
}

/// A call to libm's `base` (expf / exp), marked pure so loops around it vectorize, with the
/// libmvec variants the loop vectorizer may use instead.
llvm::Value* Emitter::mathCall(const char* base, llvm::Value* x, DType t) {
    bool single = t != DType::Float64;
    std::string libmName = std::string(base) + (single ? "f" : "");
    // A name LLVM does not know as a library function: it would turn sinf into llvm.sin and
    // drop the vector variants (the JIT resolves kiln_sinf to libm's sinf).
    std::string name = "kiln_" + libmName;
    llvm::Type* ty = typeOf(t);
    llvm::FunctionCallee callee = m_m.getOrInsertFunction(name, ty, ty);
    auto* f = llvm::cast<llvm::Function>(callee.getCallee());
    f->setDoesNotAccessMemory();
    f->setDoesNotThrow();
    f->addFnAttr(llvm::Attribute::WillReturn);
    llvm::CallInst* call = m_b.CreateCall(callee, {x});
    call->setDoesNotAccessMemory();
    if (!m_target.vectorMath) return call;
    std::string variants;
    auto add = [&](const char* isa, int lanes) {
        std::string prefix = std::string("_ZGV") + isa + "N" + std::to_string(lanes) + "v_";
        std::string vname = prefix + libmName;
        auto* vty = llvm::FixedVectorType::get(ty, static_cast<unsigned>(lanes));
        m_m.getOrInsertFunction(vname, vty, vty);
        if (auto* vf = m_m.getFunction(vname); vf && vf->use_empty()) {
            vf->setDoesNotAccessMemory();
            vf->setDoesNotThrow();
            // Unused until the vectorizer calls it: keep global DCE from deleting it first.
            llvm::appendToCompilerUsed(m_m, {vf});
        }
        variants += (variants.empty() ? "" : ",") + prefix + name + "(" + vname + ")";
    };
    add("b", single ? 4 : 2);
    add("d", single ? 8 : 4);
    if (m_target.avx512) add("e", single ? 16 : 8);
    call->addFnAttr(llvm::Attribute::get(m_ctx, "vector-function-abi-variant", variants));
    return call;
}

llvm::Value* Emitter::maxMin(bool isMax, llvm::Value* a, llvm::Value* b, DType t) {
    if (t == DType::Bool) return isMax ? m_b.CreateOr(a, b) : m_b.CreateAnd(a, b);
    if (isUnsigned(t))
        return m_b.CreateBinaryIntrinsic(isMax ? llvm::Intrinsic::umax : llvm::Intrinsic::umin, a,
                                         b);
    if (!tensor::isFloating(t))
        return isMax ? m_b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, a, b)
                     : m_b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, a, b);
    // NaN wins, as in torch.maximum / amax.
    return m_b.CreateBinaryIntrinsic(isMax ? llvm::Intrinsic::maximum : llvm::Intrinsic::minimum, a,
                                     b);
}

llvm::Value* Emitter::remainder(llvm::Value* a, llvm::Value* b, DType t) {
    bool fp = tensor::isFloating(t);
    if (isUnsigned(t)) return m_b.CreateURem(a, b); // no signs to reconcile
    // fmod has the sign of a; where it is non-zero and the signs of it and b differ, adding
    // b gives Python's remainder (PyTorch's CPU and CUDA kernels do the same).
    llvm::Value* r = fp ? m_b.CreateFRem(a, b) : m_b.CreateSRem(a, b);
    llvm::Type* ty = a->getType();
    llvm::Value* zero = fp ? llvm::ConstantFP::get(ty, 0.0) : llvm::ConstantInt::get(ty, 0);
    llvm::Value* nonZero = fp ? m_b.CreateFCmpUNE(r, zero) : m_b.CreateICmpNE(r, zero);
    llvm::Value* rNegative = fp ? m_b.CreateFCmpOLT(r, zero) : m_b.CreateICmpSLT(r, zero);
    llvm::Value* bNegative = fp ? m_b.CreateFCmpOLT(b, zero) : m_b.CreateICmpSLT(b, zero);
    llvm::Value* fix = m_b.CreateAnd(nonZero, m_b.CreateXor(rNegative, bNegative));
    return m_b.CreateSelect(fix, fp ? m_b.CreateFAdd(r, b) : m_b.CreateAdd(r, b), r);
}

llvm::Value* Emitter::unaryOp(ScalarOp op, llvm::Value* x, DType t) {
    bool fp = tensor::isFloating(t);
    llvm::Type* ty = typeOf(t);
    auto one = [&] { return fp ? llvm::ConstantFP::get(ty, 1.0) : llvm::ConstantInt::get(ty, 1); };
    auto zero = [&] { return fp ? llvm::ConstantFP::get(ty, 0.0) : llvm::ConstantInt::get(ty, 0); };
    switch (op) {
    case ScalarOp::Neg:
        return fp ? m_b.CreateFNeg(x) : m_b.CreateNeg(x);
    case ScalarOp::Abs:
        if (isUnsigned(t)) return x;
        return fp ? m_b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x)
                  : m_b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, x, m_b.getFalse());
    case ScalarOp::Exp:
        return mathCall("exp", x, t);
    case ScalarOp::Log:
        return mathCall("log", x, t);
    case ScalarOp::Sin:
        return mathCall("sin", x, t);
    case ScalarOp::Cos:
        return mathCall("cos", x, t);
    case ScalarOp::Tan:
        return mathCall("tan", x, t);
    case ScalarOp::Tanh:
        return mathCall("tanh", x, t);
    case ScalarOp::Erf:
        return mathCall("erf", x, t);
    case ScalarOp::Log1p:
        return mathCall("log1p", x, t);
    case ScalarOp::Sqrt:
        return m_b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x);
    case ScalarOp::Rsqrt:
        return m_b.CreateFDiv(one(), m_b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x));
    case ScalarOp::Floor:
        return fp ? m_b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, x) : x;
    case ScalarOp::Ceil:
        return fp ? m_b.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, x) : x;
    case ScalarOp::Round:
        return fp ? m_b.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, x) : x;
    case ScalarOp::Reciprocal:
        return m_b.CreateFDiv(one(), x);
    case ScalarOp::Sign: {
        if (isUnsigned(t)) return m_b.CreateZExt(m_b.CreateICmpNE(x, zero()), ty);
        llvm::Value* pos = fp ? m_b.CreateFCmpOGT(x, zero()) : m_b.CreateICmpSGT(x, zero());
        llvm::Value* neg = fp ? m_b.CreateFCmpOLT(x, zero()) : m_b.CreateICmpSLT(x, zero());
        llvm::Value* minusOne =
            fp ? llvm::ConstantFP::get(ty, -1.0) : llvm::ConstantInt::get(ty, -1);
        // Zero for 0, -0 and NaN, as PyTorch's sign: (0 < x) - (x < 0).
        return m_b.CreateSelect(pos, one(), m_b.CreateSelect(neg, minusOne, zero()));
    }
    case ScalarOp::LogicalNot:
        return m_b.CreateNot(x);
    default:
        break;
    }
    KILN_ASSERT(false, "unary op without code generation");
    return nullptr;
}

/// An order comparison of unsigned integers (bools and uint8); null for any other op.
llvm::Value* Emitter::unsignedCompare(ScalarOp op, llvm::Value* a, llvm::Value* b) {
    switch (op) {
    case ScalarOp::Lt:
        return m_b.CreateICmpULT(a, b);
    case ScalarOp::Le:
        return m_b.CreateICmpULE(a, b);
    case ScalarOp::Gt:
        return m_b.CreateICmpUGT(a, b);
    case ScalarOp::Ge:
        return m_b.CreateICmpUGE(a, b);
    default:
        return nullptr;
    }
}

llvm::Value* Emitter::binaryOp(ScalarOp op, llvm::Value* a, llvm::Value* b, DType t) {
    bool fp = tensor::isFloating(t);
    if (t == DType::Bool) {
        // Bools are i1: arithmetic saturates as in PyTorch (True + True is True) and order
        // comparisons are unsigned (True is 1, not -1).
        switch (op) {
        case ScalarOp::Add:
            return m_b.CreateOr(a, b);
        case ScalarOp::Mul:
            return m_b.CreateAnd(a, b);
        case ScalarOp::Sub:
            return m_b.CreateXor(a, b);
        default:
            if (llvm::Value* c = unsignedCompare(op, a, b)) return c;
            break;
        }
    }
    if (isUnsigned(t)) {
        if (op == ScalarOp::Div) return m_b.CreateUDiv(a, b);
        if (llvm::Value* c = unsignedCompare(op, a, b)) return c;
    }
    switch (op) {
    case ScalarOp::Add:
        return fp ? m_b.CreateFAdd(a, b) : m_b.CreateAdd(a, b);
    case ScalarOp::Sub:
        return fp ? m_b.CreateFSub(a, b) : m_b.CreateSub(a, b);
    case ScalarOp::Mul:
        return fp ? m_b.CreateFMul(a, b) : m_b.CreateMul(a, b);
    case ScalarOp::Div:
        return fp ? m_b.CreateFDiv(a, b) : m_b.CreateSDiv(a, b);
    case ScalarOp::Mod:
        return remainder(a, b, t);
    case ScalarOp::Pow: {
        bool single = t != DType::Float64;
        llvm::Type* ty = typeOf(t);
        llvm::FunctionCallee callee = m_m.getOrInsertFunction(single ? "powf" : "pow", ty, ty, ty);
        auto* call = m_b.CreateCall(callee, {a, b});
        call->setDoesNotAccessMemory();
        return call;
    }
    case ScalarOp::Maximum:
        return maxMin(true, a, b, t);
    case ScalarOp::Minimum:
        return maxMin(false, a, b, t);
    case ScalarOp::Eq:
        return fp ? m_b.CreateFCmpOEQ(a, b) : m_b.CreateICmpEQ(a, b);
    case ScalarOp::Ne:
        return fp ? m_b.CreateFCmpUNE(a, b) : m_b.CreateICmpNE(a, b);
    case ScalarOp::Lt:
        return fp ? m_b.CreateFCmpOLT(a, b) : m_b.CreateICmpSLT(a, b);
    case ScalarOp::Le:
        return fp ? m_b.CreateFCmpOLE(a, b) : m_b.CreateICmpSLE(a, b);
    case ScalarOp::Gt:
        return fp ? m_b.CreateFCmpOGT(a, b) : m_b.CreateICmpSGT(a, b);
    case ScalarOp::Ge:
        return fp ? m_b.CreateFCmpOGE(a, b) : m_b.CreateICmpSGE(a, b);
    case ScalarOp::LogicalAnd:
        return m_b.CreateAnd(a, b);
    case ScalarOp::LogicalOr:
        return m_b.CreateOr(a, b);
    default:
        break;
    }
    KILN_ASSERT(false, "binary op without code generation");
    return nullptr;
}

llvm::Value* Emitter::scalar(const Scalar& s) {
    auto memo = m_memo.find(s.get());
    if (memo != m_memo.end()) return memo->second;
    llvm::Value* v = nullptr;
    switch (s->op) {
    case ScalarOp::Load:
        if (s->buffer == m_overrideBuffer) {
            v = m_overrideValue;
            break;
        }
        v = loadElement(s->buffer, s->operands.empty() ? index(s->index) : indirectOffset(*s));
        break;
    case ScalarOp::Constant:
        v = tensor::isFloating(s->dtype)
                ? static_cast<llvm::Value*>(llvm::ConstantFP::get(typeOf(s->dtype), s->constant))
                : llvm::ConstantInt::get(
                      typeOf(s->dtype),
                      static_cast<uint64_t>(compiler::integerConstant(s->constant, s->dtype)),
                      !isUnsigned(s->dtype));
        break;
    case ScalarOp::IndexAsValue:
        v = index(s->index);
        break;
    case ScalarOp::Cast:
        v = convert(scalar(s->operands[0]), s->operands[0]->dtype, s->dtype);
        break;
    case ScalarOp::RandUniform:
        v = randUniformIR(m_b, index(s->index), scalar(s->operands[0]),
                          static_cast<uint32_t>(s->constant), typeOf(s->dtype));
        break;
    case ScalarOp::Where:
        v = m_b.CreateSelect(scalar(s->operands[0]), scalar(s->operands[1]),
                             scalar(s->operands[2]));
        break;
    default:
        if (compiler::scalarOpArity(s->op) == 1)
            v = unaryOp(s->op, scalar(s->operands[0]), s->dtype);
        else
            v = binaryOp(s->op, scalar(s->operands[0]), scalar(s->operands[1]),
                         s->operands[0]->dtype);
    }
    m_memo[s.get()] = v;
    return v;
}

llvm::MDNode* Emitter::loopMetadata(bool innermost) {
    llvm::SmallVector<llvm::Metadata*, 4> ops;
    auto temp = llvm::MDNode::getTemporary(m_ctx, {});
    ops.push_back(temp.get());
    if (innermost && m_tuning.vectorWidth > 0) {
        ops.push_back(
            llvm::MDNode::get(m_ctx, {llvm::MDString::get(m_ctx, "llvm.loop.vectorize.width"),
                                      llvm::ConstantAsMetadata::get(m_b.getInt32(
                                          static_cast<uint32_t>(m_tuning.vectorWidth)))}));
        ops.push_back(
            llvm::MDNode::get(m_ctx, {llvm::MDString::get(m_ctx, "llvm.loop.vectorize.enable"),
                                      llvm::ConstantAsMetadata::get(m_b.getTrue())}));
    }
    if (innermost && m_tuning.interleave > 0)
        ops.push_back(
            llvm::MDNode::get(m_ctx, {llvm::MDString::get(m_ctx, "llvm.loop.interleave.count"),
                                      llvm::ConstantAsMetadata::get(m_b.getInt32(
                                          static_cast<uint32_t>(m_tuning.interleave)))}));
    llvm::MDNode* md = llvm::MDNode::get(m_ctx, ops);
    md->replaceOperandWith(0, md);
    return md;
}

void Emitter::loop(llvm::Value* begin, llvm::Value* end, int32_t var, bool innermost,
                   const std::function<void()>& body) {
    llvm::BasicBlock* pre = m_b.GetInsertBlock();
    llvm::BasicBlock* header = llvm::BasicBlock::Create(m_ctx, "loop", m_fn);
    llvm::BasicBlock* exit = llvm::BasicBlock::Create(m_ctx, "loop.end", m_fn);
    m_b.CreateCondBr(m_b.CreateICmpSLT(begin, end), header, exit);
    m_b.SetInsertPoint(header);
    llvm::PHINode* iv = m_b.CreatePHI(i64(), 2);
    iv->addIncoming(begin, pre);
    m_vars[var] = iv;
    auto memo = m_memo; // values computed inside the loop do not dominate code after it
    body();
    m_memo = std::move(memo);
    llvm::Value* next = m_b.CreateAdd(iv, m_b.getInt64(1), "", true, true);
    iv->addIncoming(next, m_b.GetInsertBlock());
    llvm::BranchInst* br = m_b.CreateCondBr(m_b.CreateICmpSLT(next, end), header, exit);
    br->setMetadata(llvm::LLVMContext::MD_loop, loopMetadata(innermost));
    m_b.SetInsertPoint(exit);
    m_vars.erase(var);
}

void Emitter::loopNest(const std::vector<Index>& ranges, size_t firstVar,
                       const std::function<void()>& body) {
    std::function<void(size_t)> level = [&](size_t i) {
        if (i == ranges.size()) return body();
        loop(m_b.getInt64(0), index(ranges[i]), static_cast<int32_t>(firstVar + i),
             i + 1 == ranges.size(), [&] { level(i + 1); });
    };
    level(0);
}

} // namespace kiln::codegen
