// SPDX-License-Identifier: MIT
// Losses: nll_loss, cross_entropy (class indices with weights, ignore_index and label smoothing,
// or class probabilities) and mse_loss. Scores are read in an (N, C, S) view: N batch rows, C
// classes, S positions per row (the trailing dims of (N, C, d1, ...) inputs). Every sum is
// accumulated in double and rounded once to the input's dtype.
#include "tensor/autograd.h"
#include "tensor/error.h"
#include "tensor/iterate.h"
#include "tensor/ops.h"
#include "tensor/shape.h"

#include <charconv>
#include <string>

namespace kiln::tensor {

namespace {

enum class Reduction { None, Mean, Sum };

Reduction parseReduction(const std::string& r) {
    if (r == "none") return Reduction::None;
    if (r == "mean") return Reduction::Mean;
    if (r == "sum") return Reduction::Sum;
    fail(ErrorKind::ValueError, r + " is not a valid value for reduction");
}

struct ClassLayout {
    int64_t batch = 1, classes = 1, inner = 1;
};

ClassLayout classLayout(const Tensor& input) {
    if (input.dim() == 1) return {1, input.sizes()[0], 1};
    ClassLayout l{input.sizes()[0], input.sizes()[1], 1};
    for (int64_t d = 2; d < input.dim(); ++d)
        l.inner *= input.sizes()[d];
    return l;
}

std::vector<double> weightValues(const std::optional<Tensor>& weight) {
    if (!weight) return {};
    Tensor w = contiguous(toDType(*weight, DType::Float64));
    return std::vector<double>(w.data<double>(), w.data<double>() + w.numel());
}

void checkWeight(const std::optional<Tensor>& weight, int64_t classes, const char* prefix) {
    if (weight && (weight->dim() != 1 || weight->numel() != classes))
        failRuntime(std::string(prefix) + "weight tensor should be defined either for all " +
                    std::to_string(classes) +
                    " classes or no classes but got weight tensor of shape: " +
                    shapeString(weight->sizes()));
}

/// A double result as a tensor of `dtype` with `sizes` (one rounding).
Tensor fromDoubles(const std::vector<double>& v, IntList sizes, DType dtype) {
    Tensor d = Tensor::empty(sizes, DType::Float64);
    std::copy(v.begin(), v.end(), d.data<double>());
    return toDType(d, dtype);
}

/// Per-position terms of the class-index losses.
struct IndexTerms {
    std::vector<double> nll;    ///< -w[t] * logp[t], 0 where ignored
    std::vector<double> smooth; ///< -sum_c w[c] * logp[c], 0 where ignored (label smoothing)
    std::vector<double> weight; ///< w[t], 0 where ignored
};

template <typename T>
void indexTermsKernel(const T* logp, const int64_t* target, const std::vector<double>& w,
                      ClassLayout l, int64_t ignoreIndex, bool smoothing, IndexTerms& out) {
    const int64_t S = l.inner;
    for (int64_t n = 0; n < l.batch; ++n)
        for (int64_t s = 0; s < S; ++s) {
            const int64_t p = n * S + s, t = target[p];
            if (t == ignoreIndex) continue;
            if (t < 0 || t >= l.classes)
                fail(ErrorKind::IndexError, "Target " + std::to_string(t) + " is out of bounds.");
            const T* row = logp + n * l.classes * S + s;
            const double wt = w.empty() ? 1.0 : w[t];
            out.nll[p] = -wt * static_cast<double>(row[t * S]);
            out.weight[p] = wt;
            if (!smoothing) continue;
            double acc = 0.0;
            for (int64_t c = 0; c < l.classes; ++c)
                acc += static_cast<double>(row[c * S]) * (w.empty() ? 1.0 : w[c]);
            out.smooth[p] = -acc;
        }
}

IndexTerms indexTerms(const Tensor& logp, const Tensor& target, const std::vector<double>& w,
                      int64_t ignoreIndex, bool smoothing) {
    ClassLayout l = classLayout(logp);
    const size_t positions = static_cast<size_t>(l.batch * l.inner);
    IndexTerms terms{std::vector<double>(positions, 0.0), std::vector<double>(positions, 0.0),
                     std::vector<double>(positions, 0.0)};
    Tensor lc = contiguous(logp), tc = contiguous(target);
    dispatchDType(logp.dtype(), [&]<DType D>() {
        using T = CType<D>;
        if constexpr (!std::is_integral_v<T>)
            indexTermsKernel<T>(lc.data<T>(), tc.data<int64_t>(), w, l, ignoreIndex, smoothing,
                                terms);
    });
    return terms;
}

/// label_smoothing as torch's message prints a double (shortest form, "1.5").
std::string formatLs(double v) {
    char buf[32];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, end);
}

double total(const std::vector<double>& v) {
    double s = 0.0;
    for (double x : v)
        s += x;
    return s;
}

void checkNllArgs(const Tensor& input, const Tensor& target, const std::optional<Tensor>& weight) {
    if (input.dim() < 1)
        fail(ErrorKind::ValueError,
             "Expected 1 or more dimensions (got " + std::to_string(input.dim()) + ")");
    if (input.dim() != 1 && (target.dim() == 0 || input.sizes()[0] != target.sizes()[0]))
        fail(ErrorKind::ValueError,
             "Expected input batch_size (" + std::to_string(input.sizes()[0]) +
                 ") to match target batch_size (" +
                 std::to_string(target.dim() ? target.sizes()[0] : 1) + ").");
    if (input.dim() <= 2 && target.dim() > 1)
        failRuntime("0D or 1D target tensor expected, multi-target not supported");
    if (input.dim() > 2) {
        DimVector expected = input.sizes();
        expected.erase(1);
        if (!(expected == target.sizes()))
            failRuntime("Expected target size " + shapeString(expected) + ", got " +
                        shapeString(target.sizes()));
    }
    if (target.dtype() != DType::Int64)
        failRuntime("expected target dtype to be Long or Byte, but got " +
                    std::string(dtypeLegacyName(target.dtype())));
    checkWeight(weight, classLayout(input).classes, "");
    if (weight && weight->dtype() != input.dtype())
        failRuntime("expected scalar type " + std::string(dtypeLegacyName(input.dtype())) +
                    " but found " + std::string(dtypeLegacyName(weight->dtype())));
}

/// The node torch's nll_loss_nd leaves: 2-D kernels for 3+ dims, reshaped back for 'none'.
std::string_view nllGradFn(const Tensor& input, Reduction r) {
    if (input.dim() <= 2) return "NllLossBackward0";
    return input.dim() != 4 && r == Reduction::None ? "ViewBackward0" : "NllLoss2DBackward0";
}

/// (1 - ls) * nll + ls / C * smooth, each reduced as requested ('mean' divides both by the
/// total weight of the non-ignored targets, which is their count without class weights).
Tensor combineIndexLoss(const IndexTerms& terms, Reduction r, double ls, int64_t classes,
                        const Tensor& target, DType dtype) {
    const double a = 1.0 - ls, b = ls / static_cast<double>(classes);
    if (r == Reduction::None) {
        std::vector<double> v(terms.nll.size());
        for (size_t i = 0; i < v.size(); ++i)
            v[i] = a * terms.nll[i] + b * terms.smooth[i];
        return fromDoubles(v, target.sizes(), dtype);
    }
    double nll = total(terms.nll), smooth = total(terms.smooth);
    if (r == Reduction::Mean) {
        const double norm = total(terms.weight);
        nll /= norm;
        smooth /= norm;
    }
    return fromDoubles({a * nll + (ls > 0 ? b * smooth : 0.0)}, {}, dtype);
}

/// Cross entropy against class probabilities: -sum_c w[c] * t[c] * logp[c] per position, with
/// label smoothing applied to the targets.
template <typename T, typename U>
std::vector<double> probabilityTerms(const T* logp, const U* target, const std::vector<double>& w,
                                     ClassLayout l, double ls) {
    const int64_t S = l.inner;
    std::vector<double> out(static_cast<size_t>(l.batch * S), 0.0);
    const double keep = 1.0 - ls, spread = ls / static_cast<double>(l.classes);
    for (int64_t n = 0; n < l.batch; ++n)
        for (int64_t c = 0; c < l.classes; ++c)
            for (int64_t s = 0; s < S; ++s) {
                const int64_t i = (n * l.classes + c) * S + s;
                double t = static_cast<double>(target[i]);
                if (ls > 0) t = t * keep + spread;
                out[n * S + s] -= static_cast<double>(logp[i]) * t * (w.empty() ? 1.0 : w[c]);
            }
    return out;
}

Tensor probabilityCrossEntropy(const Tensor& input, const Tensor& target,
                               const std::optional<Tensor>& weight, Reduction r, double ls) {
    if (!isFloating(target.dtype()))
        failRuntime("Expected floating point type for target with class probabilities, got " +
                    std::string(dtypeLegacyName(target.dtype())));
    if (ls > 0.0 && ls > 1.0)
        failRuntime("label_smoothing must be between 0.0 and 1.0. Got: " + formatLs(ls));
    ClassLayout l = classLayout(input);
    checkWeight(weight, l.classes, "cross_entropy: ");
    Tensor logp = contiguous(logSoftmax(input, input.dim() == 1 ? 0 : 1));
    Tensor tc = contiguous(toDType(target, DType::Float64));
    std::vector<double> terms;
    dispatchDType(input.dtype(), [&]<DType D>() {
        using T = CType<D>;
        if constexpr (!std::is_integral_v<T>)
            terms = probabilityTerms<T, double>(logp.data<T>(), tc.data<double>(),
                                                weightValues(weight), l, ls);
    });
    if (r == Reduction::None) {
        DimVector shape = input.sizes();
        shape.erase(input.dim() == 1 ? 0 : 1);
        return fromDoubles(terms, shape, input.dtype());
    }
    double sum = total(terms);
    // torch divides by the number of positions (numel / C), NaN for an empty input.
    if (r == Reduction::Mean) sum /= static_cast<double>(l.batch * l.inner);
    return fromDoubles({sum}, {}, input.dtype());
}

/// (a - b)^2 over a broadcast loop: stored per element (rounded once) when `store`, otherwise
/// summed in double and returned.
template <typename T>
double squaredErrors(const LoopGeometry<3>& g, std::array<char*, 3> base, bool store) {
    using C = ComputeType<T>;
    double sum = 0.0;
    forEachRun(g, base, [&](std::array<char*, 3> p, std::array<int64_t, 3> st, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
            C d = static_cast<C>(*reinterpret_cast<const T*>(p[1] + i * st[1])) -
                  static_cast<C>(*reinterpret_cast<const T*>(p[2] + i * st[2]));
            if (store)
                *reinterpret_cast<T*>(p[0] + i * st[0]) = static_cast<T>(d * d);
            else
                sum += static_cast<double>(d) * static_cast<double>(d);
        }
    });
    return sum;
}

} // namespace

Tensor nllLoss(const Tensor& logProbs, const Tensor& target, const std::optional<Tensor>& weight,
               const std::string& reduction, int64_t ignoreIndex) {
    Reduction r = parseReduction(reduction);
    checkNllArgs(logProbs, target, weight);
    IndexTerms terms = indexTerms(logProbs, target, weightValues(weight), ignoreIndex, false);
    Tensor out =
        combineIndexLoss(terms, r, 0.0, classLayout(logProbs).classes, target, logProbs.dtype());
    recordGradFn(out, nllGradFn(logProbs, r), {&logProbs, weight ? &*weight : nullptr});
    attachNllLossDerivative(out, logProbs, target, weight, r == Reduction::Sum,
                            r == Reduction::Mean, ignoreIndex, 0.0);
    return out;
}

Tensor crossEntropy(const Tensor& input, const Tensor& target, const std::optional<Tensor>& weight,
                    const std::string& reduction, int64_t ignoreIndex, double labelSmoothing) {
    Reduction r = parseReduction(reduction);
    if (input.sizes() == target.sizes()) {
        Tensor out = probabilityCrossEntropy(input, target, weight, r, labelSmoothing);
        recordGradFn(out, r == Reduction::Mean ? "DivBackward1" : "NegBackward0",
                     {&input, &target});
        attachProbabilityCrossEntropyDerivative(out, input, target, weight, r == Reduction::Mean,
                                                labelSmoothing > 0 ? labelSmoothing : 0.0);
        return out;
    }
    if (labelSmoothing > 0.0 && labelSmoothing > 1.0)
        failRuntime("label_smoothing must be between 0.0 and 1.0. Got: " +
                    formatLs(labelSmoothing));
    Tensor logp = logSoftmax(input, input.dim() == 1 ? 0 : 1);
    checkNllArgs(logp, target, weight);
    const double ls = labelSmoothing > 0.0 ? labelSmoothing : 0.0;
    IndexTerms terms = indexTerms(logp, target, weightValues(weight), ignoreIndex, ls > 0.0);
    Tensor out = combineIndexLoss(terms, r, ls, classLayout(logp).classes, target, input.dtype());
    // The node's input is the log_softmax, as in PyTorch (nll_loss(log_softmax(input))).
    recordGradFn(out, ls > 0.0 ? "AddBackward0" : nllGradFn(input, r),
                 {&logp, weight ? &*weight : nullptr});
    attachNllLossDerivative(out, logp, target, weight, r == Reduction::Sum, r == Reduction::Mean,
                            ignoreIndex, ls);
    return out;
}

Tensor mseLoss(const Tensor& input, const Tensor& target, const std::string& reduction) {
    Reduction r = parseReduction(reduction);
    DType dtype = promoteTypes(input.dtype(), target.dtype());
    DimVector shape = broadcastShapes(input.sizes(), target.sizes());
    if (!isFloating(dtype))
        fail(ErrorKind::NotImplementedError,
             "\"mse_cpu\" not implemented for '" + std::string(dtypeLegacyName(dtype)) + "'");
    Tensor a = toDType(input, dtype), b = toDType(target, dtype); // no copy when already dtype
    Tensor out = Tensor::empty(r == Reduction::None ? IntList(shape) : IntList(), dtype);
    DimVector aStrides = broadcastStrides(a, shape), bStrides = broadcastStrides(b, shape);
    DimVector outStrides = r == Reduction::None ? out.strides() : DimVector(shape.size(), 0);
    const int64_t item = itemSize(dtype);
    auto g = makeLoopGeometry<3>(shape, {IntList(outStrides), IntList(aStrides), IntList(bStrides)},
                                 {item, item, item});
    dispatchDType(dtype, [&]<DType D>() {
        using T = CType<D>;
        if constexpr (!std::is_integral_v<T>) {
            double sum = squaredErrors<T>(g, {out.rawData(), a.rawData(), b.rawData()},
                                          r == Reduction::None);
            if (r != Reduction::None)
                *out.data<T>() = static_cast<T>(static_cast<ComputeType<T>>(
                    r == Reduction::Mean ? sum / static_cast<double>(checkedNumel(shape)) : sum));
        }
    });
    recordGradFn(out, "MseLossBackward0", {&input, &target});
    attachMseLossDerivative(out, input, target, r == Reduction::Mean);
    return out;
}

} // namespace kiln::tensor
