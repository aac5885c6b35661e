// SPDX-License-Identifier: MIT
/// \file
/// The loop-level kernel IR, after Inductor's: buffers with (possibly symbolic) layouts, and
/// nodes that fill them. A Pointwise node computes one scalar expression per output element, a
/// Reduction node folds an expression over trailing reduction ranges, an Extern node calls a
/// library routine (BLAS matrix products), a Fallback node runs one graph node through the eager
/// kernels. Scalar expressions load from buffers at integer index expressions (index_expr.h);
/// the loop variables of a node are numbered: its ranges first, then its reduction ranges.
#pragma once

#include "compiler/index_expr.h"
#include "tensor/dtype.h"

#include <memory>
#include <string>
#include <vector>

namespace kiln::compiler {

using tensor::DType;

enum class ScalarOp : uint8_t {
    Load,
    Constant,
    IndexAsValue, ///< an index expression as an int64 value (arange, iota)
    // unary
    Neg,
    Abs,
    Exp,
    Log,
    Sqrt,
    Rsqrt,
    Sin,
    Cos,
    Tan,
    Tanh,
    Erf,
    Log1p,
    Floor,
    Ceil,
    Round,
    Sign,
    Reciprocal,
    LogicalNot,
    Cast,
    /// A uniform random float in [0, 1) (float32: 24 random bits, float64: 53) for the int64
    /// operand, a counter (the element's linear index, or 2i / 2i+1 for the two uniforms of
    /// randn's Box-Muller): Philox4x32-10 keyed by the per-call seed (`index`, a size symbol
    /// the runtime draws from the eager generator) on the counter (operand, stream, 0), where
    /// the stream (`constant`) tells the graph's random ops apart. Pure: the same seed, stream
    /// and counter give the same value, so an inlined random value may be recomputed.
    RandUniform,
    // binary
    Add,
    Sub,
    Mul,
    Div,
    /// Python's and torch.remainder's a % b: the sign of b (a - floor(a / b) * b), computed as
    /// fmod then corrected. Integer operands only where b cannot be 0 (a CPU division by zero
    /// traps; the decomposition leaves those to the eager kernels).
    Mod,
    Pow,
    Maximum,
    Minimum,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LogicalAnd,
    LogicalOr,
    // ternary
    Where,
};

const char* scalarOpName(ScalarOp op);
int scalarOpArity(ScalarOp op);
bool isComparison(ScalarOp op);

struct ScalarNode;
using Scalar = std::shared_ptr<const ScalarNode>;

/// One scalar computation. Floating expressions compute in float32 or float64: loads of
/// float16/bfloat16 buffers widen to float32 and stores narrow back, as Inductor's CPU code does.
struct ScalarNode {
    ScalarOp op = ScalarOp::Constant;
    DType dtype = DType::Float32;
    std::vector<Scalar> operands;
    int32_t buffer = -1; ///< Load
    Index index;         ///< Load, IndexAsValue; RandUniform: the seed
    /// An indirect load (embedding, gather) reads element index + operands[0] * indirectStride,
    /// operands[0] being an int64 position checked against [0, indirectBound).
    Index indirectStride, indirectBound;
    double constant = 0; ///< Constant (integers are exact up to 2^53); RandUniform: the stream
};

/// The type expressions of a buffer's elements compute in.
DType computeType(DType storage);
Scalar load(int32_t buffer, DType bufferDType, Index index);
/// buffer[index + position * stride], position (an int64 expression) checked against [0, bound):
/// outside it, the program's status buffer records an out-of-range index.
Scalar loadIndirect(int32_t buffer, DType bufferDType, Index index, Scalar position, Index stride,
                    Index bound);
Scalar scalarConstant(double value, DType dtype);
/// A Constant of integer `dtype` as the value its code holds: wrapped to the type's width as
/// PyTorch converts a Python int (300 is 44 as uint8, -1 is 255), except that the infinities
/// reductions use as identities (and splits' padding) are the type's extremes.
int64_t integerConstant(double value, DType dtype);
Scalar indexAsValue(Index index);
Scalar unary(ScalarOp op, Scalar a);
Scalar binary(ScalarOp op, Scalar a, Scalar b);
Scalar where(Scalar condition, Scalar a, Scalar b);
Scalar cast(Scalar a, DType dtype);
/// RandUniform of `counter` (int64) in `dtype` (float32 or float64).
Scalar randUniform(Index seed, int64_t stream, Scalar counter, DType dtype);
/// How many operations an expression has (Inductor's realize_opcount_threshold counts these).
int opCount(const Scalar& s);
/// Every (buffer, index) the expression loads.
void collectLoads(const Scalar& s, std::vector<const ScalarNode*>& out);
Scalar substituteIndices(const Scalar& s, const std::function<Index(int32_t)>& replacement);

/// WelfordMean / WelfordM2: the mean and the sum of squared deviations of the body, by
/// Welford's single-pass update (variance = m2 / (n - correction)).
enum class ReductionKind : uint8_t {
    Sum,
    Prod,
    Max,
    Min,
    ArgMax,
    ArgMin,
    Any,
    All,
    WelfordMean,
    WelfordM2
};
const char* reductionName(ReductionKind kind);

struct Buffer {
    enum class Origin : uint8_t { Input, Computed, Extern, Fallback };
    int32_t id = 0;
    std::string name; ///< "arg0_1" for inputs, "buf3" for computed ones
    Origin origin = Origin::Computed;
    DType dtype = DType::Float32;
    std::vector<Index> sizes;
    std::vector<Index> strides;
    Index offset;
    int32_t inputIndex = -1; ///< Input: position among the graph inputs
};

/// A strided view of a buffer: how an extern or fallback reads an operand, and where a graph
/// output lives.
struct BufferView {
    int32_t buffer = -1;
    std::vector<Index> sizes;
    std::vector<Index> strides;
    Index offset;
};

struct LoopNode {
    enum class Kind : uint8_t { Pointwise, Reduction, Extern, Fallback };
    Kind kind = Kind::Pointwise;
    int32_t output = -1; ///< buffer the node writes (Fallback: its first output)
    std::vector<Index> ranges;
    std::vector<Index> reductionRanges;
    ReductionKind reduction = ReductionKind::Sum;
    Scalar body;                      ///< Pointwise / Reduction
    std::vector<int32_t> inputs;      ///< Extern / Fallback: buffers read
    std::vector<BufferView> operands; ///< Extern / Fallback: how each input is read
    std::vector<int32_t> outputs;     ///< Fallback: every buffer written
    std::string externName;           ///< "mm", "bmm", "addmm"
    double alpha = 1, beta = 1;       ///< Extern addmm; flash_attention: causal, scale
    /// Extern convolution: stride, padding, dilation (two each) and groups.
    std::vector<int64_t> externInts;
    int32_t fxNode = -1; ///< Fallback: the graph node it runs
    /// Fallback in an AOT backward graph: the gradient of operand `gradOf` of the graph node,
    /// its last operand being the gradient of the node's result (-1: runs the node itself).
    int32_t gradOf = -1;
    std::vector<std::string> origins;   ///< the graph node names it computes ("sin", "add")
    std::vector<std::string> originOps; ///< their ops, sorted, for kernel names ("add", "sin")

    /// The buffers the node reads.
    std::vector<int32_t> reads() const;
};

/// A graph lowered to loops: buffers, nodes in a valid execution order, and which buffers are
/// the graph's outputs.
struct LoopProgram {
    std::vector<Buffer> buffers;
    std::vector<LoopNode> nodes;
    std::vector<int32_t> outputs;         ///< buffer per graph output (-1: not a tensor, see below)
    std::vector<std::string> symbolNames; ///< s0, s1, ...
    /// An int64[1] buffer kernels with indirect loads set to 1 on an out-of-range position;
    /// -1 when the program has none.
    int32_t statusBuffer = -1;

    int32_t addBuffer(Buffer b);
    const Buffer& buffer(int32_t id) const { return buffers.at(static_cast<size_t>(id)); }
};

/// The deterministic text form (ir_pre_fusion.txt, golden tests).
std::string toString(const Scalar& s, const LoopProgram& program,
                     const std::vector<std::string>* varNames = nullptr);
std::string toString(const LoopProgram& program);
std::string describeNode(const LoopProgram& program, const LoopNode& node);

/// Checks the structural rules every pass keeps (buffer ids in range, loads of the right rank,
/// defined before use); an empty string when the program is well formed, else what is wrong.
std::string verify(const LoopProgram& program);

} // namespace kiln::compiler
