// SPDX-License-Identifier: MIT
#include "inductor/cuda_matmul.h"

#include "inductor/gpu_profiler.h"
#include "runtime/cuda_memory.h"
#include "runtime/cuda_tensor.h"
#include "support/matmul_precision.h"
#include "tensor/convert.h"
#include "tensor/error.h"
#include "tensor/ops.h"

#if KILN_HAVE_CUDA_CODEGEN
#include "codegen/cuda/cublaslt.h"
#endif

#include <map>
#include <mutex>
#include <optional>

namespace kiln::inductor {

namespace {

using tensor::Tensor;

#if KILN_HAVE_CUDA_CODEGEN

/// The same tensor through host memory (a layout cuBLASLt cannot read, a dtype it does not
/// multiply): correct and slow, so only for what graphs rarely hold.
Tensor onHost(const Tensor& t) {
    return tensor::contiguous(runtime::toDevice(t, tensor::Device{}));
}

Tensor onDevice(const Tensor& t) {
    return runtime::toDevice(t, tensor::Device{tensor::DeviceType::CUDA, 0});
}

using codegen::cuda::MatmulDType;
using codegen::cuda::MatmulEpilogue;
using codegen::cuda::MatmulShape;

/// How cuBLASLt reads the last two dimensions: stored transposed or not, and the elements
/// between stored rows (at least a row's length: a slice of a wider matrix is fine).
struct MatrixLayout {
    bool transposed = false;
    int64_t ld = 0;
};

/// nullopt for a layout with no unit stride in the last two dimensions.
std::optional<MatrixLayout> matrixLayout(const Tensor& t) {
    int64_t d = t.dim();
    int64_t rows = t.size(d - 2), cols = t.size(d - 1);
    int64_t sr = t.stride(d - 2), sc = t.stride(d - 1);
    if ((cols == 1 || sc == 1) && (rows == 1 || sr >= cols))
        return MatrixLayout{false, rows == 1 ? cols : sr};
    if ((rows == 1 || sr == 1) && (cols == 1 || sc >= rows))
        return MatrixLayout{true, cols == 1 ? rows : sc};
    return std::nullopt;
}

void* pointer(const Tensor& t) {
    return reinterpret_cast<void*>(runtime::devicePointer(t));
}

std::optional<MatmulDType> matmulDType(tensor::DType t) {
    switch (t) {
    case tensor::DType::Float32:
        return MatmulDType::Float32;
    case tensor::DType::BFloat16:
        return MatmulDType::BFloat16;
    case tensor::DType::Float16:
        return MatmulDType::Float16;
    default:
        return std::nullopt;
    }
}

/// A matrix operand cuBLASLt can read, and how it is stored.
std::pair<Tensor, MatrixLayout> operand(const Tensor& t) {
    if (std::optional<MatrixLayout> layout = matrixLayout(t)) return {t, *layout};
    Tensor dense = onDevice(onHost(t));
    return {dense, MatrixLayout{false, dense.size(dense.dim() - 1)}};
}

int64_t batchStride(const Tensor& t, int64_t rows, int64_t cols) {
    if (t.dim() < 3 || t.size(0) == 1) return rows * cols;
    return t.stride(0);
}

/// The largest power of two up to 256 dividing every byte offset in `offsets`: the alignment
/// cuBLASLt may assume of every matrix of a batch, which is the base pointer's and that of
/// each step between rows and matrices.
uint32_t alignmentOf(std::initializer_list<uint64_t> offsets) {
    uint32_t align = 256;
    for (uint64_t o : offsets)
        while (align > 1 && o % align != 0)
            align /= 2;
    return align;
}

std::string keyOf(const MatmulShape& s) {
    char key[320];
    std::snprintf(
        key, sizeof key,
        "%d %d %lld %lld %lld %d %d %lld %lld %lld %lld %lld %lld %d %g %g %u %u %u",
        static_cast<int>(s.dtype), s.allowTf32 ? 1 : 0, static_cast<long long>(s.m),
        static_cast<long long>(s.n), static_cast<long long>(s.k), s.transposeA ? 1 : 0,
        s.transposeB ? 1 : 0, static_cast<long long>(s.batch), static_cast<long long>(s.strideA),
        static_cast<long long>(s.strideB), static_cast<long long>(s.strideC),
        static_cast<long long>(s.lda), static_cast<long long>(s.ldb), static_cast<int>(s.epilogue),
        static_cast<double>(s.alpha), static_cast<double>(s.beta), s.alignA, s.alignB, s.alignC);
    return key;
}

constexpr size_t kWorkspaceBytes = 32 << 20; // what cuBLAS recommends on Hopper

struct Plans {
    std::mutex mutex;
    std::map<std::string, std::unique_ptr<codegen::cuda::MatmulPlan>> byShape;
    Tensor workspace;
};

Plans& plans() {
    static Plans p;
    return p;
}

Expected<const codegen::cuda::MatmulPlan*> planFor(const MatmulShape& shape) {
    Plans& p = plans();
    std::lock_guard lock(p.mutex);
    std::string key = keyOf(shape);
    if (auto it = p.byShape.find(key); it != p.byShape.end()) return it->second.get();
    Expected<codegen::cuda::CublasLt*> lt = codegen::cuda::CublasLt::instance();
    if (!lt) return lt.error();
    auto plan = (*lt)->plan(shape, kWorkspaceBytes);
    if (!plan) return plan.error();
    if (!p.workspace.defined())
        p.workspace = runtime::emptyCuda(std::vector<int64_t>{int64_t(kWorkspaceBytes / 4)},
                                         tensor::DType::Float32);
    return (p.byShape[key] = std::move(*plan)).get();
}

/// The bias of addmm when it is one value per output column (a linear layer's bias).
std::optional<Tensor> columnBias(const Tensor& bias, int64_t n) {
    if (bias.dim() == 1 && bias.size(0) == n && (n == 1 || bias.stride(0) == 1)) return bias;
    if (bias.dim() == 2 && bias.size(1) == n && (n == 1 || bias.stride(1) == 1) &&
        (bias.size(0) == 1 || bias.stride(0) == 0))
        return bias;
    return std::nullopt;
}

/// `out` = bias broadcast to [m, n] (addmm with a full or otherwise shaped bias): a copy on
/// the device when the bias is stored as `out` is, else through host memory.
Status fillWithBias(const runtime::CudaContext& context, const Tensor& out, const Tensor& bias) {
    size_t bytes =
        static_cast<size_t>(out.numel()) * static_cast<size_t>(tensor::itemSize(out.dtype()));
    if (bias.device() == out.device() && bias.dtype() == out.dtype() &&
        bias.sizes() == out.sizes() && bias.strides() == out.strides())
        return runtime::enqueueDeviceToDevice(context, runtime::devicePointer(out),
                                              runtime::devicePointer(bias), bytes);
    Tensor host = tensor::contiguous(tensor::expand(onHost(bias), out.sizes()));
    return runtime::copyHostToDevice(context, runtime::devicePointer(out), host.rawData(), bytes);
}

Tensor hostMatmul(std::string_view op, std::span<const Tensor> in, double beta, double alpha) {
    if (op == "mm") return onDevice(tensor::mm(onHost(in[0]), onHost(in[1])));
    if (op == "bmm") return onDevice(tensor::bmm(onHost(in[0]), onHost(in[1])));
    return onDevice(tensor::addmm(onHost(in[0]), onHost(in[1]), onHost(in[2]), beta, alpha));
}

#endif

} // namespace

Status prepareCudaMatmul() {
#if KILN_HAVE_CUDA_CODEGEN
    Expected<codegen::cuda::CublasLt*> lt = codegen::cuda::CublasLt::instance();
    if (!lt) return lt.error();
    return Status::success();
#else
    return makeDiagnostic("CudaUnavailable",
                          "this Kiln was built without cuBLASLt (no CUDA toolkit headers)");
#endif
}

Expected<Tensor> cudaMatmul(std::string_view op, std::span<const Tensor> in, double beta,
                            double alpha, GpuProfiler* profiler, int64_t kernelId) {
#if KILN_HAVE_CUDA_CODEGEN
    bool addmm = op == "addmm";
    const Tensor& a0 = in[addmm ? 1 : 0];
    const Tensor& b0 = in[addmm ? 2 : 1];
    std::optional<MatmulDType> dtype = matmulDType(a0.dtype());
    if (!dtype || b0.dtype() != a0.dtype()) return hostMatmul(op, in, beta, alpha);
    auto [a, layoutA] = operand(a0);
    auto [b, layoutB] = operand(b0);
    int64_t d = a.dim();
    MatmulShape shape;
    shape.dtype = *dtype;
    shape.allowTf32 = *dtype == MatmulDType::Float32 && allowTf32Matmul();
    shape.m = a.size(d - 2);
    shape.k = a.size(d - 1);
    shape.n = b.size(d - 1);
    shape.transposeA = layoutA.transposed;
    shape.transposeB = layoutB.transposed;
    shape.lda = layoutA.ld;
    shape.ldb = layoutB.ld;
    shape.alpha = static_cast<float>(alpha);
    std::vector<int64_t> sizes{shape.m, shape.n};
    if (d == 3) {
        shape.batch = a.size(0);
        shape.strideA = batchStride(a, shape.m, shape.k);
        shape.strideB = batchStride(b, shape.k, shape.n);
        shape.strideC = shape.m * shape.n;
        sizes.insert(sizes.begin(), shape.batch);
    }
    Tensor out = runtime::emptyCuda(sizes, a.dtype());
    if (out.numel() == 0) return out;
    uint64_t item = static_cast<uint64_t>(tensor::itemSize(a.dtype()));
    auto bytes = [item](int64_t elements) { return static_cast<uint64_t>(elements) * item; };
    shape.alignA = alignmentOf({runtime::devicePointer(a), bytes(shape.lda), bytes(shape.strideA)});
    shape.alignB = alignmentOf({runtime::devicePointer(b), bytes(shape.ldb), bytes(shape.strideB)});
    shape.alignC = alignmentOf({runtime::devicePointer(out), bytes(shape.n), bytes(shape.strideC)});
    const void* bias = nullptr;
    bool fullBias = false; // copied into the output, then added by the product (beta)
    if (addmm && beta != 0) {
        std::optional<Tensor> column = beta == 1 ? columnBias(in[0], shape.n) : std::nullopt;
        if (column) {
            shape.epilogue = MatmulEpilogue::Bias;
            bias = reinterpret_cast<const void*>(runtime::devicePointer(*column));
        } else {
            fullBias = true;
            shape.beta = static_cast<float>(beta);
        }
    }
    Expected<const codegen::cuda::MatmulPlan*> plan = planFor(shape);
    if (!plan) return plan.error();
    Expected<const runtime::CudaContext*> context = runtime::cudaContext(0);
    if (!context) return context.error();
    std::shared_ptr<runtime::CudaStream> stream = runtime::currentStream(**context);
    GpuLaunchInfo info;
    info.kernelId = kernelId;
    if (profiler) profiler->beginLaunch(info, *stream);
    // Inside the launch: CUPTI reports the bias copy under the product's kernel id.
    if (fullBias) {
        if (Status filled = fillWithBias(**context, out, in[0]); !filled) {
            if (profiler) profiler->endLaunch(*stream);
            return filled.error();
        }
    }
    Status s = (*plan)->run(pointer(a), pointer(b), pointer(out), bias, pointer(plans().workspace),
                            stream->handle());
    if (profiler) profiler->endLaunch(*stream);
    if (!s) return s.error();
    return out;
#else
    (void)op, (void)in, (void)beta, (void)alpha, (void)profiler, (void)kernelId;
    return makeDiagnostic("CudaUnavailable",
                          "this Kiln was built without cuBLASLt (no CUDA toolkit headers)");
#endif
}

} // namespace kiln::inductor
