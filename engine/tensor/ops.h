// SPDX-License-Identifier: MIT
/// \file
/// The eager operator library: every tensor operation a workload can call, on the CPU.
///
/// Contract for every function here:
/// - inputs may have any strides (views, transposes, expands, slices); outputs are new dense
///   tensors unless the function is documented as returning a view: elementwise results are
///   laid out in the memory order of their inputs as PyTorch lays them out (`x.t() + 1` is
///   stored like `x.t()`), all others are contiguous. Code that needs a contiguous buffer
///   calls contiguous() on a result;
/// - binary and ternary ops broadcast and promote types exactly as PyTorch does (a Python
///   number arrives as wrapNumber(...) and promotes as a number);
/// - errors throw TensorError with PyTorch's message wording;
/// - results match PyTorch within the dtype's tolerance; 16-bit floats compute in float32 and
///   round once per op; float32 reductions accumulate in double;
/// - every op records its autograd node name with recordGradFn (e.g. "AddBackward0").
///
/// The op groups live in one source file each: pointwise.cpp, reduce.cpp, creation.cpp,
/// view.cpp, shape_ops.cpp, index.cpp, linalg.cpp, nn.cpp.
#pragma once

#include "tensor/convert.h"
#include "tensor/scalar.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln::tensor {

class Generator;

// ---------------------------------------------------------------------------------------------
// Type promotion (pointwise.cpp)

/// torch.result_type over the given operands (dimensioned tensors outrank 0-dim tensors, which
/// outrank wrapped numbers; a higher category from a lower rank still lifts the result).
DType resultType(std::initializer_list<const Tensor*> operands);

// ---------------------------------------------------------------------------------------------
// Pointwise (pointwise.cpp)

enum class UnaryOp {
    Abs,
    Neg,
    Exp,
    Exp2,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Sqrt,
    Rsqrt,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Sigmoid,
    Erf,
    Erfc,
    Floor,
    Ceil,
    Round,
    Trunc,
    Frac,
    Sign,
    Reciprocal,
    Square,
    Relu,
    Silu,
    Gelu,
    GeluTanh,
    LogicalNot,
    BitwiseNot,
    IsNan,
    IsInf,
    IsFinite
};

enum class BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    TruncDiv,
    Remainder,
    Fmod,
    Pow,
    Maximum,
    Minimum,
    Atan2,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
    BitwiseAnd,
    BitwiseOr,
    BitwiseXor,
    LeftShift,
    RightShift
};

/// Integer inputs to float functions (exp, sin, sqrt, sigmoid, ...) give the default float
/// dtype; comparisons and logical ops give bool; abs/neg/floor/... keep the dtype.
Tensor unary(UnaryOp op, const Tensor& a);
Tensor binary(BinaryOp op, const Tensor& a, const Tensor& b);
/// a + alpha * b (torch.add with alpha) and a - alpha * b.
Tensor addScaled(const Tensor& a, const Tensor& b, Scalar alpha);
/// In-place a op= b: a keeps its dtype; RuntimeError "result type Float can't be cast to the
/// desired output type Long" when the promoted type cannot be cast to a's dtype.
void binaryInPlace(BinaryOp op, const Tensor& a, const Tensor& b);
void unaryInPlace(UnaryOp op, const Tensor& a);

Tensor where(const Tensor& condition, const Tensor& a, const Tensor& b);
Tensor clamp(const Tensor& a, const std::optional<Tensor>& min, const std::optional<Tensor>& max);
Tensor maskedFill(const Tensor& a, const Tensor& mask, const Tensor& value);
/// torch.isclose / torch.allclose.
Tensor isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equalNan);
bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equalNan);
bool equal(const Tensor& a, const Tensor& b);
Tensor lerp(const Tensor& a, const Tensor& b, const Tensor& weight);

// ---------------------------------------------------------------------------------------------
// Reductions (reduce.cpp). `dims` empty means all dimensions.

Tensor sum(const Tensor& a, IntList dims, bool keepdim, std::optional<DType> dtype = {});
/// RuntimeError for integer inputs without dtype, as PyTorch ("mean(): could not infer ...").
Tensor mean(const Tensor& a, IntList dims, bool keepdim, std::optional<DType> dtype = {});
Tensor prod(const Tensor& a, IntList dims, bool keepdim, std::optional<DType> dtype = {});
Tensor amax(const Tensor& a, IntList dims, bool keepdim);
Tensor amin(const Tensor& a, IntList dims, bool keepdim);
/// max/min over a dimension: (values, indices).
std::pair<Tensor, Tensor> maxDim(const Tensor& a, int64_t dim, bool keepdim);
std::pair<Tensor, Tensor> minDim(const Tensor& a, int64_t dim, bool keepdim);
/// max/min of all elements (0-dim); RuntimeError on an empty tensor as PyTorch.
Tensor maxAll(const Tensor& a);
Tensor minAll(const Tensor& a);
Tensor argmax(const Tensor& a, std::optional<int64_t> dim, bool keepdim);
Tensor argmin(const Tensor& a, std::optional<int64_t> dim, bool keepdim);
/// Variance with Bessel-style correction (1 = unbiased), computed with Welford's algorithm.
Tensor var(const Tensor& a, IntList dims, double correction, bool keepdim);
Tensor std(const Tensor& a, IntList dims, double correction, bool keepdim);
Tensor all(const Tensor& a, std::optional<int64_t> dim, bool keepdim);
Tensor any(const Tensor& a, std::optional<int64_t> dim, bool keepdim);
Tensor softmax(const Tensor& a, int64_t dim, std::optional<DType> dtype = {});
Tensor logSoftmax(const Tensor& a, int64_t dim, std::optional<DType> dtype = {});
Tensor logsumexp(const Tensor& a, IntList dims, bool keepdim);
Tensor cumsum(const Tensor& a, int64_t dim, std::optional<DType> dtype = {});
Tensor cumprod(const Tensor& a, int64_t dim, std::optional<DType> dtype = {});
/// Vector p-norm over dims (p = 2 by default; inf and -inf allowed).
Tensor norm(const Tensor& a, double p, IntList dims, bool keepdim);

// ---------------------------------------------------------------------------------------------
// Creation (creation.cpp)

Tensor zeros(IntList sizes, const TensorOptions& options);
Tensor ones(IntList sizes, const TensorOptions& options);
Tensor full(IntList sizes, Scalar value, const TensorOptions& options);
/// torch.arange: dtype int64 when start, end and step are all integers, else the default float.
Tensor arange(Scalar start, Scalar end, Scalar step, std::optional<DType> dtype);
Tensor linspace(double start, double end, int64_t steps, const TensorOptions& options);
Tensor eye(int64_t n, int64_t m, const TensorOptions& options);
Tensor tril(const Tensor& a, int64_t diagonal);
Tensor triu(const Tensor& a, int64_t diagonal);
/// torch.tensor(data): `values` in row-major order of `sizes`.
Tensor fromScalars(const std::vector<Scalar>& values, IntList sizes, DType dtype);

// Random (random.cpp). Values need not match PyTorch's generator bit for bit.
Tensor randn(IntList sizes, const TensorOptions& options, Generator& gen);
Tensor rand(IntList sizes, const TensorOptions& options, Generator& gen);
Tensor randint(int64_t low, int64_t high, IntList sizes, const TensorOptions& options,
               Generator& gen);
Tensor randperm(int64_t n, const TensorOptions& options, Generator& gen);
/// Fills in place: uniform_(from, to) and normal_(mean, std) (nn.init uses these).
void uniformInPlace(const Tensor& a, double from, double to, Generator& gen);
void normalInPlace(const Tensor& a, double mean, double stddev, Generator& gen);
Tensor multinomial(const Tensor& probs, int64_t numSamples, bool replacement, Generator& gen);

// ---------------------------------------------------------------------------------------------
// Views (view.cpp): these return views sharing storage.

/// view: RuntimeError "view size is not compatible with input tensor's size and stride (at
/// least one dimension spans across two contiguous subspaces). Use .reshape(...) instead." when
/// impossible; sizes may contain one -1.
Tensor view(const Tensor& a, IntList sizes);
/// A view when possible, otherwise a copy.
Tensor reshape(const Tensor& a, IntList sizes);
Tensor permute(const Tensor& a, IntList dims);
Tensor transpose(const Tensor& a, int64_t dim0, int64_t dim1);
/// t(): RuntimeError for more than 2 dims as PyTorch.
Tensor t(const Tensor& a);
Tensor unsqueeze(const Tensor& a, int64_t dim);
/// squeeze all size-1 dims (dims empty) or only the given ones.
Tensor squeeze(const Tensor& a, IntList dims);
Tensor expand(const Tensor& a, IntList sizes);
Tensor flatten(const Tensor& a, int64_t startDim, int64_t endDim);
Tensor unflatten(const Tensor& a, int64_t dim, IntList sizes);
Tensor narrow(const Tensor& a, int64_t dim, int64_t start, int64_t length);
Tensor select(const Tensor& a, int64_t dim, int64_t index);
/// Python slice semantics on one dim (start/end clamp; step > 0).
Tensor slice(const Tensor& a, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step);
Tensor diagonal(const Tensor& a, int64_t offset, int64_t dim1, int64_t dim2);
Tensor movedim(const Tensor& a, int64_t source, int64_t destination);
/// An alias sharing storage (Tensor.detach(), nn.Parameter's data).
Tensor alias(const Tensor& a);

// ---------------------------------------------------------------------------------------------
// Shape ops (shape_ops.cpp)

std::vector<Tensor> split(const Tensor& a, int64_t splitSize, int64_t dim);
std::vector<Tensor> splitWithSizes(const Tensor& a, IntList sizes, int64_t dim);
std::vector<Tensor> chunk(const Tensor& a, int64_t chunks, int64_t dim);
std::vector<Tensor> unbind(const Tensor& a, int64_t dim);
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim);
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim);
Tensor repeat(const Tensor& a, IntList repeats);
Tensor flip(const Tensor& a, IntList dims);
Tensor roll(const Tensor& a, IntList shifts, IntList dims);

// ---------------------------------------------------------------------------------------------
// Indexing (index.cpp): Python/NumPy indexing as torch implements it.

struct IndexItem {
    enum class Kind { Integer, Slice, None, Ellipsis, Tensor, Boolean };
    Kind kind = Kind::Integer;
    int64_t integer = 0;
    std::optional<int64_t> start, stop;
    int64_t step = 1;
    Tensor tensor; ///< Kind::Tensor: an int64/int32 index tensor or a bool mask
    bool boolean = false;
};

/// a[items]: basic indexing returns a view; advanced (tensor) indexing returns a copy.
Tensor index(const Tensor& a, const std::vector<IndexItem>& items);
/// The gradient of a[items] (advanced indexing) for an `a` of `sizes`: `grad` added at the
/// places each element was read from.
Tensor indexBackward(const Tensor& grad, IntList sizes, const std::vector<IndexItem>& items);
/// a[items] = value (value broadcast to the indexed shape and cast to a's dtype).
void indexPut(const Tensor& a, const std::vector<IndexItem>& items, const Tensor& value);
Tensor gather(const Tensor& a, int64_t dim, const Tensor& index);

// Index-driven writes (scatter.cpp), out of place: the in-place forms copy the result back.
enum class ScatterReduce { None, Sum, Prod, Mean, Amax, Amin };
/// scatter_reduce's name ("sum", "prod", "mean", "amax", "amin"), or with `twoArgForm`
/// scatter_'s reduce= ("add", "multiply"); RuntimeError for any other.
ScatterReduce scatterReduceOf(const std::string& name, bool twoArgForm);
/// scatter / scatter_add / scatter_reduce with a source tensor; `op` names it in messages.
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
               ScatterReduce reduce, bool includeSelf, const char* op);
/// scatter with a scalar (cast to self's dtype), optionally reducing (add, multiply).
Tensor scatterValue(const Tensor& self, int64_t dim, const Tensor& index, Scalar value,
                    ScatterReduce reduce);
Tensor indexAdd(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                Scalar alpha);
Tensor indexCopy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
Tensor indexFill(const Tensor& self, int64_t dim, const Tensor& index, Scalar value);
/// Counts (or sums `weights` per value) of a 1-D non-negative integral tensor.
Tensor bincount(const Tensor& input, const Tensor* weights, int64_t minlength);
Tensor indexSelect(const Tensor& a, int64_t dim, const Tensor& index);
Tensor maskedSelect(const Tensor& a, const Tensor& mask);
Tensor nonzero(const Tensor& a);
/// (values, indices) of the k largest (or smallest) along dim, sorted.
std::pair<Tensor, Tensor> topk(const Tensor& a, int64_t k, int64_t dim, bool largest, bool sorted);
std::pair<Tensor, Tensor> sort(const Tensor& a, int64_t dim, bool descending);
/// torch.unique (sorted) or torch.unique_consecutive (`consecutive`: runs, unsorted) over the
/// elements, or over the slices along `dim`: the values, each element's (slice's) group, and
/// each group's size.
struct UniqueResult {
    Tensor values, inverse, counts;
};
UniqueResult unique(const Tensor& a, std::optional<int64_t> dim, bool consecutive);

// ---------------------------------------------------------------------------------------------
// Linear algebra (linalg.cpp): float32/float64 through OpenBLAS; 16-bit floats compute in
// float32; integers with a plain loop.

Tensor matmul(const Tensor& a, const Tensor& b);
Tensor mm(const Tensor& a, const Tensor& b);
Tensor bmm(const Tensor& a, const Tensor& b);
/// beta * bias + alpha * (a @ b)
Tensor addmm(const Tensor& bias, const Tensor& a, const Tensor& b, Scalar beta, Scalar alpha);
// beta * input + alpha * product (linalg_add.cpp): beta == 0 ignores the input; integral dtypes
// take beta and alpha as integers.
Tensor baddbmm(const Tensor& input, const Tensor& b1, const Tensor& b2, Scalar beta, Scalar alpha);
Tensor addbmm(const Tensor& input, const Tensor& b1, const Tensor& b2, Scalar beta, Scalar alpha);
Tensor addmv(const Tensor& input, const Tensor& mat, const Tensor& vec, Scalar beta, Scalar alpha);
Tensor addr(const Tensor& input, const Tensor& vec1, const Tensor& vec2, Scalar beta, Scalar alpha);
/// x @ w.T + b, for any leading batch dims of x.
Tensor linear(const Tensor& x, const Tensor& weight, const std::optional<Tensor>& bias);
Tensor einsum(const std::string& equation, const std::vector<Tensor>& operands);
Tensor outer(const Tensor& a, const Tensor& b);
Tensor dot(const Tensor& a, const Tensor& b);

// ---------------------------------------------------------------------------------------------
// Neural-network functions (nn.cpp)

Tensor layerNorm(const Tensor& x, IntList normalizedShape, const std::optional<Tensor>& weight,
                 const std::optional<Tensor>& bias, double eps);
/// approximate: "none" or "tanh"
Tensor gelu(const Tensor& x, const std::string& approximate);
Tensor dropout(const Tensor& x, double p, bool training, Generator& gen);
Tensor embedding(const Tensor& weight, const Tensor& indices, std::optional<int64_t> paddingIdx);
Tensor scaledDotProductAttention(const Tensor& q, const Tensor& k, const Tensor& v,
                                 const std::optional<Tensor>& attnMask, double dropoutP,
                                 bool isCausal, std::optional<double> scale, Generator& gen);
/// reduction: "mean", "sum" or "none"; target holds class indices (int64) or probabilities.
Tensor crossEntropy(const Tensor& input, const Tensor& target, const std::optional<Tensor>& weight,
                    const std::string& reduction, int64_t ignoreIndex, double labelSmoothing);
Tensor nllLoss(const Tensor& logProbs, const Tensor& target, const std::optional<Tensor>& weight,
               const std::string& reduction, int64_t ignoreIndex);
Tensor mseLoss(const Tensor& input, const Tensor& target, const std::string& reduction);
Tensor oneHot(const Tensor& indices, int64_t numClasses);

} // namespace kiln::tensor
