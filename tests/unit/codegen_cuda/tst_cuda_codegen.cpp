// SPDX-License-Identifier: MIT
// CUDA code generation on a machine without a GPU: the emitter's choices for fused graphs
// (vector width, work per thread, reduction strategy by row length, one-pass softmax and
// Welford), every kernel kind compiled by NVRTC for sm_90, dynamic sizes as arguments, launch
// descriptors, and a compile error surfacing as a Diagnostic.
#include "../../gpu/cuda_workloads.h"
#include "codegen/cuda/attention_kernel.h"
#include "codegen/cuda/cuda_codegen.h"
#include "codegen/cuda/discarded_loads.h"
#include "codegen/cuda/expr_printer.h"
#include "codegen/cuda/precompiled_attention.h"

#include <QTest>
#include <cmath>
#include <map>

using namespace kiln;
using namespace kiln::codegen::cuda;
using kiln::testing::cuda::FusedGraph;
namespace wl = kiln::testing::cuda;
using tensor::DType;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// The kernel itself, after the shared helpers.
std::string body(const CudaKernel& k) {
    return k.source.substr(k.source.find("extern \"C\""));
}

bool has(const CudaKernel& k, const std::string& pattern) {
    return std::find(k.fusedPatterns.begin(), k.fusedPatterns.end(), pattern) !=
           k.fusedPatterns.end();
}

CudaKernel generate(const compiler::ScheduledKernel& kernel, const FusedGraph& g) {
    Expected<CudaKernel> k = generateCudaKernel(g.program, kernel);
    if (!k) qFatal("generation failed: %s", k.error().render().c_str());
    // For reading what the emitter made of a graph: KILN_PRINT_SOURCE=1 tst_cuda_codegen NAME.
    // KILN_PRINT_SOURCE=full prints the helpers too (a file nvcc compiles).
    if (const char* print = std::getenv("KILN_PRINT_SOURCE"))
        qInfo("%s", (std::string(print) == "full" ? k->source : body(*k)).c_str());
    return std::move(k).value();
}

CudaKernel generate(const FusedGraph& g) {
    return generate(g.kernel(), g);
}

/// NVRTC is loaded at run time; a machine without it skips the compile checks.
bool haveNvrtc() {
    return nvrtcVersion().ok();
}

/// Compiles for sm_90 (memory-only cache) and checks a cubin (an ELF image) came back.
void compilesForSm90(const CudaKernel& k) {
    if (!haveNvrtc()) QSKIP("NVRTC (libnvrtc.so.13) is not available on this machine");
    KernelCache cache("");
    Expected<CompiledImage> image = cache.getOrCompile(k.source, k.name, NvrtcOptions{});
    if (!image) {
        qWarning("%s", k.source.c_str());
        QFAIL(image.error().render().c_str());
    }
    QVERIFY(image->image.size() > 4);
    QCOMPARE(image->image.substr(0, 4), std::string("\x7f"
                                                    "ELF"));
}

} // namespace

class TstCudaCodegen : public QObject {
    Q_OBJECT
private slots:
    void maskedAttentionSoftmaxHoldsRowsAndDividesOnce() {
        CudaKernel k = generate(wl::maskedAttentionSoftmax(8, 12, 1024));
        QCOMPARE(k.rows, RowStrategy::WarpPerRow);
        QCOMPARE(k.vectorWidth, 8);
        QVERIFY(has(k, "row_in_registers"));
        // The sum divides every element: one reciprocal per row, then products.
        std::string code = body(k);
        QVERIFY(contains(code, "const float k_row3_rcp = 1.f / k_row3;"));
        QVERIFY(contains(code, " * k_row3_rcp)"));
        QVERIFY(!contains(code, " / k_row3)"));
        // The scores are read only where the mask keeps them: a thread whose whole vector is
        // masked out fills it with zeros instead of reading memory.
        QVERIFY(contains(code, "kiln_vload_unless(k_row_cache"));
        compilesForSm90(k);
        // Asked not to: every score is read.
        FusedGraph g = wl::maskedAttentionSoftmax(8, 12, 1024);
        CudaCodegenOptions options;
        options.reduction.skipDiscardedLoads = false;
        Expected<CudaKernel> all = generateCudaKernel(g.program, g.kernel(), options);
        QVERIFY(all.ok());
        QVERIFY(!contains(body(*all), "kiln_vload_unless"));
    }

    void discardedLoadsNeedEveryReadGuarded() {
        using namespace compiler;
        Scalar x = load(0, DType::Float32, loopVar(0));
        Scalar m = load(1, DType::Float32, loopVar(0));
        Scalar masked = binary(ScalarOp::Eq, m, scalarConstant(0, DType::Float32));
        Scalar fill = where(masked, scalarConstant(-INFINITY, DType::Float32),
                            binary(ScalarOp::Mul, x, scalarConstant(2, DType::Float32)));
        std::vector<Scalar> bodies{fill, unary(ScalarOp::Exp, fill)};
        Scalar guard = discardingCondition(bodies, *x);
        QVERIFY(guard);
        QVERIFY(sameScalar(guard, masked));
        // The mask itself is read outside any discarded branch.
        QVERIFY(!discardingCondition(bodies, *m));
        // One read outside the where: the value is needed.
        bodies.push_back(binary(ScalarOp::Add, fill, x));
        QVERIFY(!discardingCondition(bodies, *x));
        // A where whose condition reads the load does not guard it.
        Scalar self = where(binary(ScalarOp::Gt, x, scalarConstant(0, DType::Float32)),
                            scalarConstant(0, DType::Float32), x);
        QVERIFY(!discardingCondition(std::vector<Scalar>{self}, *x));
        // Different conditions on two reads: no single condition discards both.
        Scalar other = where(binary(ScalarOp::Ne, m, scalarConstant(1, DType::Float32)),
                             scalarConstant(0, DType::Float32), x);
        QVERIFY(!discardingCondition(std::vector<Scalar>{fill, other}, *x));
    }

    void headCopiesReadAndWriteAlongTheHeadDim() {
        // q, k^T and v of attention's heads (views of one projection) merged to one batch:
        // three copies, each reading and writing whole vectors along the head dim.
        wl::FusedGraph g = wl::headProducts(8, 1024, 12, 64);
        int copies = 0;
        for (const compiler::ScheduledKernel& kernel : g.schedule.kernels) {
            if (!kernel.compiled()) continue;
            ++copies;
            CudaKernel k = generate(kernel, g);
            QCOMPARE(k.vectorWidth, 8);
            QVERIFY2(contains(body(k), "kiln_vload(k_v0, arg0_1 + "), body(k).c_str());
            QVERIFY(contains(body(k), "kiln_vstore("));
            compilesForSm90(k);
        }
        QCOMPARE(copies, 3);
        // k^T was copied as stored ([96, 1024, 64]) and the product reads it transposed.
        const compiler::LoopNode* scores = nullptr;
        for (const compiler::LoopNode& n : g.program.nodes)
            if (n.kind == compiler::LoopNode::Kind::Extern && !scores) scores = &n;
        QVERIFY(scores);
        const compiler::BufferView& kT = scores->operands.at(1);
        std::vector<int64_t> strides;
        for (const compiler::Index& s : kT.strides) {
            int64_t v = -1;
            QVERIFY(compiler::isConstant(s, &v));
            strides.push_back(v);
        }
        QCOMPARE(strides, (std::vector<int64_t>{65536, 1, 64}));
    }

    void remainderLog1pAndLogicalOpsCompile() {
        for (DType t : {DType::Float32, DType::Int64, DType::Int32}) {
            wl::FusedGraph g = wl::buildGraph([t](compiler::AtenBuilder& b) {
                b.setOrigin("remainder", "remainder");
                int32_t x = b.placeholder(0, wl::dims({64, 33}), t);
                int32_t y = b.placeholder(1, wl::dims({64, 33}), t);
                int32_t r = b.binary("remainder", x, y, t);
                int32_t both = b.binary("logical_and", b.compare("gt", x, b.constant(0, t)),
                                        b.compare("lt", y, b.constant(0, t)), DType::Bool);
                return std::vector<int32_t>{r, both};
            });
            CudaKernel k = generate(g);
            QVERIFY(contains(body(k), "kiln_mod("));
            QVERIFY(contains(body(k), "&&"));
            compilesForSm90(k);
        }
        wl::FusedGraph g = wl::buildGraph([](compiler::AtenBuilder& b) {
            int32_t x = b.placeholder(0, wl::dims({1000}), DType::Float32);
            return std::vector<int32_t>{b.unary("log1p", x)};
        });
        CudaKernel k = generate(g);
        QVERIFY(contains(body(k), "log1pf("));
        compilesForSm90(k);
    }

    void smallIntegersUseTheirCTypes() {
        // uint8/int8/int16 values are held in their own C types, so every op wraps in the
        // narrow type as PyTorch's does; a float narrows through int64 (uint8) or int (int8,
        // int16) as the eager cast does, not through a saturating cvt.
        const std::pair<DType, std::string> types[] = {
            {DType::UInt8, "uint8_t"}, {DType::Int8, "int8_t"}, {DType::Int16, "int16_t"}};
        for (const auto& [t, name] : types) {
            wl::FusedGraph g = wl::buildGraph([t](compiler::AtenBuilder& b) {
                int32_t x = b.placeholder(0, wl::dims({64, 33}), t);
                int32_t y = b.placeholder(1, wl::dims({64, 33}), t);
                int32_t sum = b.binary("add", x, y, t);
                int32_t big = b.compare("gt", sum, b.constant(100, t));
                int32_t scaled = b.binary("mul", b.toDtype(x, DType::Float32),
                                          b.constant(2.5, DType::Float32), DType::Float32);
                return std::vector<int32_t>{sum, big, b.toDtype(scaled, t),
                                            b.binary("maximum", x, y, t)};
            });
            CudaKernel k = generate(g);
            QVERIFY(contains(k.source, "typedef unsigned char uint8_t;"));
            QVERIFY2(contains(body(k), "const " + name + " "), body(k).c_str());
            QVERIFY2(contains(body(k), name + "* "), body(k).c_str());
            std::string narrowing =
                "(" + name + ")(" + (t == DType::UInt8 ? "long long" : "int") + ")(";
            QVERIFY2(contains(body(k), narrowing), body(k).c_str());
            compilesForSm90(k);
        }
        // Row reductions of the narrow types: max/min keep the type (block reductions of
        // uint8_t values), argmax compares them.
        for (const auto& [t, name] : types) {
            for (const char* op : {"amax", "amin", "argmax"}) {
                wl::FusedGraph g = wl::buildGraph([t, op](compiler::AtenBuilder& b) {
                    b.setOrigin(op, op);
                    int32_t x = b.placeholder(0, wl::dims({16, 4096}), t);
                    return std::vector<int32_t>{b.reduce(op, x, {1}, false)};
                });
                CudaKernel k = generate(g);
                QVERIFY2(contains(body(k), name), body(k).c_str());
                compilesForSm90(k);
            }
        }
        // A number next to a uint8 tensor wraps to its width; the identities of max/min are
        // the type's extremes.
        QCOMPARE(literal(300, DType::UInt8), std::string("44"));
        QCOMPARE(literal(-1, DType::UInt8), std::string("255"));
        QCOMPARE(literal(-INFINITY, DType::Int8), std::string("-128"));
        QCOMPARE(literal(INFINITY, DType::UInt8), std::string("255"));
        QCOMPARE(literal(-INFINITY, DType::Int32), std::string("(-2147483647 - 1)"));
        QCOMPARE(literal(-INFINITY, DType::Int64), std::string("(-9223372036854775807LL - 1)"));
    }

    void flashAttentionCompilesForEachSpec() {
        using Spec = AttentionKernelSpec;
        for (Spec spec : {Spec{DType::BFloat16, 64, true}, Spec{DType::Float16, 128, false},
                          Spec{DType::BFloat16, 16, true}}) {
            CudaKernel k;
            k.name = attentionKernelName(spec);
            k.source = attentionKernelSource(spec);
            QVERIFY(contains(k.source, "extern \"C\" __global__"));
            QVERIFY(contains(k.source, "constexpr int D = " + std::to_string(spec.headDim) + ";"));
            QVERIFY(contains(k.source, spec.dtype == DType::Float16 ? "\"f16\"" : "\"bf16\""));
            compilesForSm90(k);
        }
        QCOMPARE(attentionKernelName({DType::BFloat16, 64, true}),
                 std::string("kiln_flash_attention_bf16_d64_causal"));
        QCOMPARE(attentionKernelName({DType::Float16, 128, false}),
                 std::string("kiln_flash_attention_f16_d128"));
    }

    void maskedFlashAttentionHasItsSummaryKernel() {
        // Attention written out with masked_fill(mask, -inf): a mask input, a summary kernel of
        // its own, and NaN for rows the mask empties (softmax of a row of -inf).
        AttentionKernelSpec spec{DType::BFloat16, 64, false, 2};
        spec.masked = true;
        spec.emptyRowsNan = true;
        QCOMPARE(attentionKernelName(spec),
                 std::string("kiln_flash_attention_bf16_d64_masked_nanrows_m2n64b1"));
        QCOMPARE(attentionSummaryKernelName(spec), attentionKernelName(spec) + "_summary");
        std::string source = attentionKernelSource(spec);
        QVERIFY(contains(source, "#define KILN_MASKED 1"));
        QVERIFY(contains(source, "0x7fc00000"));
        std::string summary = attentionSummaryKernelSource(spec);
        QVERIFY(contains(summary, "constexpr int BN = 64;"));
        if (!haveNvrtc()) QSKIP("NVRTC (libnvrtc.so.13) is not available on this machine");
        NvrtcOptions ptx;
        ptx.ptx = true;
        KernelCache cache("");
        Expected<CompiledImage> image = cache.getOrCompile(source, attentionKernelName(spec), ptx);
        if (!image) QFAIL(image.error().render().c_str());
        QVERIFY(contains(image->image, ".entry " + attentionKernelName(spec) + "("));
        QVERIFY(!contains(image->image, "_summary"));
        // The summary is its own program (NVRTC compiles it beside the attention kernel).
        Expected<CompiledImage> summaryImage =
            cache.getOrCompile(summary, attentionSummaryKernelName(spec), ptx);
        if (!summaryImage) QFAIL(summaryImage.error().render().c_str());
        QVERIFY(contains(summaryImage->image, ".entry " + attentionSummaryKernelName(spec) + "("));
        // Unmasked kernels keep their parameter list (no mask).
        AttentionKernelSpec plain{DType::BFloat16, 64, true};
        QVERIFY(contains(attentionKernelSource(plain), "#define KILN_MASKED 0"));
    }

    void attentionKernelsArePrecompiledForSm90() {
        // The block's kernels (bf16, head size 64: causal for scaled_dot_product_attention,
        // masked with NaN rows for attention written out) come with Kiln, compiled by nvcc.
        if (precompiledAttentionCount() == 0)
            QSKIP("this build had no nvcc: attention kernels compile with NVRTC at run time");
        QCOMPARE(precompiledAttentionCount(), 16); // 12 kernels, the 4 masked ones' summaries
        for (bool masked : {false, true}) {
            AttentionKernelSpec spec =
                attentionSpecFor(DType::BFloat16, 64, !masked, masked, masked);
            std::vector<std::string> entries{attentionKernelName(spec)};
            if (masked) entries.push_back(attentionSummaryKernelName(spec));
            for (const std::string& entry : entries) {
                std::string_view cubin = precompiledAttentionCubin(entry, 90);
                QVERIFY2(cubin.size() > 4, entry.c_str());
                QCOMPARE(std::string(cubin.substr(0, 4)), std::string("\x7f"
                                                                      "ELF"));
                QVERIFY2(cubin.find(entry) != std::string_view::npos, entry.c_str());
                // Other devices compile at run time.
                QVERIFY(precompiledAttentionCubin(entry, 80).empty());
            }
        }
        // The spec cuda_attention launches for a head size of 64 is the one precompiled.
        QCOMPARE(attentionSpecFor(DType::BFloat16, 64, true, false, false).warpTiles, 2);
        QCOMPARE(attentionSpecFor(DType::Float16, 128, true, false, false).warpTiles, 1);
        QVERIFY(precompiledAttentionCubin("kiln_flash_attention_bf16_d32", 90).empty());
    }

    void gpuFusionJoinsOnlyNodesThatShareData() {
        // softmax(x) and an unrelated y * 2 of a compatible shape: one kernel under the CPU's
        // policy, two under the GPU's (requireSharedData), where the copy would only add
        // registers and index math to the softmax kernel.
        auto graph = [](bool gpu) {
            compiler::FusionOptions fusion;
            fusion.requireSharedData = gpu;
            return wl::buildGraph(
                [](compiler::AtenBuilder& b) {
                    int32_t x = b.placeholder(0, wl::dims({64, 128}), tensor::DType::Float32);
                    int32_t y = b.placeholder(1, wl::dims({64, 128}), tensor::DType::Float32);
                    int32_t s = compiler::rules::softmaxOf(b, x, 1, false);
                    return std::vector<int32_t>{
                        s, b.binary("mul", y, b.constant(2.0, tensor::DType::Float32))};
                },
                {}, fusion);
        };
        QCOMPARE(graph(false).schedule.kernels.size(), size_t(1));
        wl::FusedGraph gpu = graph(true);
        QCOMPARE(gpu.schedule.kernels.size(), size_t(2));
        QCOMPARE(gpu.schedule.kernels[0].kind, compiler::ScheduledKernel::Kind::Reduction);
        QCOMPARE(gpu.schedule.kernels[1].kind, compiler::ScheduledKernel::Kind::Pointwise);
    }

    void sinCosIsVectorizedPointwise() {
        FusedGraph g = kiln::testing::cuda::sinCos(int64_t(1) << 26);
        QCOMPARE(g.schedule.kernels.size(), size_t(1));
        CudaKernel k = generate(g);
        QCOMPARE(k.name, g.kernel().name);
        QCOMPARE(k.vectorWidth, 4); // 16 bytes of float32
        QCOMPARE(k.elementsPerThread, 16);
        QVERIFY(contains(body(k), "kiln_vload("));
        QVERIFY(contains(body(k), "kiln_vstore("));
        QVERIFY(contains(body(k), "kiln_sincosf(")); // sin and cos share one range reduction
        QVERIFY(!k.uses64BitIndex);
        // grid = ceil(2^26 / (256 threads * 16 elements))
        LaunchDims d = k.launch.evaluate({});
        QCOMPARE(d.grid[0], int64_t(1) << 14);
        QCOMPARE(d.block[0], 256);
        QCOMPARE(k.args.size(), size_t(2));
        QVERIFY(!k.args[0].written);
        QVERIFY(k.args[1].written);
        compilesForSm90(k);
    }

    void vectorAndScalarPathsCompileAlone() {
        CudaKernel k = generate(kiln::testing::cuda::sinCos(int64_t(1) << 20));
        QVERIFY(k.vectorPath.has_value());
        QCOMPARE(k.firstPath(), KernelPath::Vector);
        QVERIFY(contains(body(k), "#ifndef KILN_SCALAR_PATH_ONLY"));
        QVERIFY(contains(body(k), "#ifdef KILN_VECTOR_PATH_ONLY"));
        // Both buffers are read or written 16 bytes at a time: both must be aligned.
        QCOMPARE(k.vectorPath->aligned.size(), size_t(2));
        for (const VectorPathCondition::Aligned& a : k.vectorPath->aligned)
            QCOMPARE(a.bytes, 16);
        QVERIFY(k.vectorPath->multiples.empty()); // the size is static
        if (!haveNvrtc()) QSKIP("NVRTC (libnvrtc.so.13) is not available on this machine");
        NvrtcOptions ptx;
        ptx.ptx = true;
        KernelCache cache("");
        std::map<KernelPath, size_t> sizes;
        for (KernelPath path : {KernelPath::Both, KernelPath::Vector, KernelPath::Scalar}) {
            Expected<CompiledImage> image = compileKernelPath(k, path, ptx, &cache);
            if (!image) QFAIL(image.error().render().c_str());
            sizes[path] = image->image.size();
            QVERIFY(contains(image->image, ".entry " + k.name));
            // Only the vector-only image traps (where its condition fails, which the host
            // never launches it with).
            QCOMPARE(contains(image->image, "trap;"), path == KernelPath::Vector);
        }
        // Each path alone is less code than both: what NVRTC no longer compiles up front.
        QVERIFY(sizes[KernelPath::Vector] < sizes[KernelPath::Both]);
        QVERIFY(sizes[KernelPath::Scalar] < sizes[KernelPath::Both]);
        // The paths are separate cache entries.
        QCOMPARE(cache.stats().compiles, 3);
    }

    void hostChoosesThePathALaunchTakes() {
        // sin+cos over a dynamic length s0: the vector path needs s0 % 4 == 0 and both
        // pointers 16-byte aligned, exactly what the kernel itself tests.
        FusedGraph g = kiln::testing::cuda::buildGraph(
            [](compiler::AtenBuilder& b) {
                b.setOrigin("add", "add");
                int32_t x = b.placeholder(0, {compiler::sizeSymbol(0)}, DType::Float32);
                return std::vector<int32_t>{b.binary("add", b.unary("sin", x), b.unary("cos", x))};
            },
            {"s0"});
        CudaKernel k = generate(g);
        QVERIFY(k.vectorPath.has_value());
        QCOMPARE(k.vectorPath->multiples.size(), size_t(1));
        QCOMPARE(k.vectorPath->multiples[0].of, int64_t(4));
        QVERIFY(contains(body(k), "s0 % 4 == 0)"));
        std::vector<uint64_t> addresses(g.program.buffers.size(), 0x7f0000000000ull);
        std::vector<int64_t> symbols{4096};
        QCOMPARE(k.pathFor(addresses, symbols), KernelPath::Vector);
        symbols[0] = 4097;
        QCOMPARE(k.pathFor(addresses, symbols), KernelPath::Scalar);
        symbols[0] = 4096;
        addresses[static_cast<size_t>(k.args[0].id)] += 4; // x[1:] of a float tensor
        QCOMPARE(k.pathFor(addresses, symbols), KernelPath::Scalar);
        addresses[static_cast<size_t>(k.args[0].id)] += 12;
        QCOMPARE(k.pathFor(addresses, symbols), KernelPath::Vector);
        // A kernel without a vector path has one image for every launch.
        CudaKernel scalar = generate(kiln::testing::cuda::sinCos(1001));
        QVERIFY(!scalar.vectorPath);
        QCOMPARE(scalar.firstPath(), KernelPath::Both);
        QCOMPARE(scalar.pathFor(addresses, symbols), KernelPath::Both);
    }

    void largeTrigArgumentsReduceOutOfLine() {
        // libdevice's long range reduction (a local array and a loop) is compiled once, in its
        // own function, not inlined into each of the sixteen unrolled elements.
        if (!haveNvrtc()) QSKIP("NVRTC (libnvrtc.so.13) is not available on this machine");
        CudaKernel k = generate(kiln::testing::cuda::sinCos(int64_t(1) << 20));
        NvrtcOptions ptx;
        ptx.ptx = true;
        Expected<CompiledImage> image = compileKernelPath(k, KernelPath::Vector, ptx);
        if (!image) QFAIL(image.error().render().c_str());
        const std::string& text = image->image;
        size_t entry = text.find(".entry " + k.name);
        QVERIFY(entry != std::string::npos);
        QVERIFY(contains(text.substr(0, entry), "kiln_sincosf_large"));
        QVERIFY(contains(text.substr(0, entry), ".local"));
        QVERIFY(!contains(text.substr(entry), ".local"));
        QVERIFY(contains(text.substr(entry), "call"));
    }

    void oddLengthFallsBackToScalar() {
        CudaKernel k = generate(kiln::testing::cuda::sinCos(1001));
        QCOMPARE(k.vectorWidth, 1);
        QVERIFY(!contains(body(k), "kiln_vload("));
        compilesForSm90(k);
    }

    void bf16UsesEightLanes() {
        CudaKernel k = generate(kiln::testing::cuda::sinCos(4096, DType::BFloat16));
        QCOMPARE(k.vectorWidth, 8); // 16 bytes of bf16
        QVERIFY(contains(body(k), "kiln_bf16_to_f32("));
        QVERIFY(contains(body(k), "kiln_f32_to_bf16("));
        compilesForSm90(k);
    }

    void longSoftmaxRowsUseOneBlockAndStayInRegisters() {
        FusedGraph g = kiln::testing::cuda::softmax(16384, 4096);
        QCOMPARE(g.schedule.kernels.size(), size_t(1));
        CudaKernel k = generate(g);
        QCOMPARE(int(k.rows), int(RowStrategy::BlockPerRow));
        QCOMPARE(k.vectorWidth, 4);
        // 4096 floats over 128 threads: the row stays in registers between the passes, so
        // amax and the sum are plain passes over registers (no online rescaling).
        QVERIFY(has(k, "row_in_registers"));
        QVERIFY(!has(k, "online_softmax"));
        QVERIFY(contains(body(k), "k_row_cache"));
        QVERIFY(contains(body(k), "KilnMax()"));
        LaunchDims d = k.launch.evaluate({});
        QCOMPARE(d.grid[0], int64_t(16384));
        QCOMPARE(d.block[0], 128); // eight float4 per thread over 4096 columns
        compilesForSm90(k);
    }

    void veryLongSoftmaxRowsUseOnePass() {
        CudaKernel k = generate(kiln::testing::cuda::softmax(64, 65536));
        QCOMPARE(int(k.rows), int(RowStrategy::BlockPerRow));
        QCOMPARE(k.launch.threads, 1024);
        QVERIFY(!has(k, "row_in_registers")); // 16 vectors per thread: streamed
        QVERIFY(has(k, "online_softmax"));
        QVERIFY(contains(body(k), "kiln_block_softmax("));
        compilesForSm90(k);
    }

    void shortSoftmaxRowsUseOneWarp() {
        CudaKernel k = generate(kiln::testing::cuda::softmax(1000, 512));
        QCOMPARE(int(k.rows), int(RowStrategy::WarpPerRow));
        QVERIFY(contains(body(k), "kiln_warp_softmax("));
        QVERIFY(!contains(body(k), "__syncthreads"));
        LaunchDims d = k.launch.evaluate({});
        QCOMPARE(d.grid[0], int64_t(125)); // 8 rows per block
        compilesForSm90(k);
    }

    void twoPassSoftmaxWhenAsked() {
        FusedGraph g = kiln::testing::cuda::softmax(64, 65536);
        CudaCodegenOptions options;
        options.reduction.softmax = ReductionConfig::Softmax::TwoPass;
        Expected<CudaKernel> k = generateCudaKernel(g.program, g.kernel(), options);
        QVERIFY(k.ok());
        QVERIFY(!has(*k, "online_softmax"));
        QVERIFY(contains(body(*k), "KilnMax()"));
        QVERIFY(contains(body(*k), "KilnSum()"));
        compilesForSm90(*k);
    }

    void layerNormUsesWelford() {
        FusedGraph g = kiln::testing::cuda::geluLayerNorm(16384, 4096);
        QCOMPARE(g.schedule.kernels.size(), size_t(1));
        CudaKernel k = generate(g);
        QCOMPARE(int(k.rows), int(RowStrategy::BlockPerRow));
        QVERIFY(has(k, "welford"));
        QVERIFY(contains(body(k), "kiln_block_welford("));
        QVERIFY(has(k, "row_in_registers"));
        QVERIFY(has(k, "thread_moments")); // exact per-thread moments, Chan across threads
        QVERIFY(contains(body(k), "erff("));
        QCOMPARE(k.args.size(), size_t(6)); // x, weight, bias, mean, m2, out
        compilesForSm90(k);
    }

    void longLayerNormRowsStreamWelford() {
        CudaKernel k = generate(kiln::testing::cuda::geluLayerNorm(8, 65536));
        QVERIFY(has(k, "welford"));
        QVERIFY(!has(k, "thread_moments"));
        QVERIFY(contains(body(k), "kiln_welford_merge("));
        compilesForSm90(k);
    }

    void bf16LayerNormAccumulatesInFloat() {
        CudaKernel k = generate(kiln::testing::cuda::geluLayerNorm(256, 768, DType::BFloat16));
        QCOMPARE(k.vectorWidth, 8);
        QVERIFY(contains(body(k), "KilnWelford")); // float moments over bf16 loads
        QVERIFY(contains(body(k), "const kiln_bf16* __restrict__"));
        compilesForSm90(k);
    }

    void rowReductionsCompile_data() {
        QTest::addColumn<QString>("op");
        QTest::addColumn<int>("cols");
        QTest::addColumn<int>("strategy");
        for (const char* op : {"sum", "amax", "mean", "var", "argmax"}) {
            QTest::newRow((std::string(op) + "/short").c_str())
                << op << 100 << int(RowStrategy::WarpPerRow);
            QTest::newRow((std::string(op) + "/long").c_str())
                << op << 8192 << int(RowStrategy::BlockPerRow);
        }
    }
    void rowReductionsCompile() {
        QFETCH(QString, op);
        QFETCH(int, cols);
        QFETCH(int, strategy);
        CudaKernel k = generate(kiln::testing::cuda::rowReduction(op.toStdString(), 64, cols));
        QCOMPARE(int(k.rows), strategy);
        compilesForSm90(k);
    }

    void dynamicSizesAreArguments() {
        FusedGraph g = kiln::testing::cuda::dynamicSoftmax(2048);
        CudaKernel k = generate(g);
        QVERIFY(k.uses64BitIndex);
        QVERIFY(k.args.back().kind == KernelArg::Kind::Symbol);
        QCOMPARE(k.args.back().name, std::string("s0"));
        QVERIFY(contains(body(k), "long long s0"));
        // A dynamic row count with a static row length still keeps the row in registers.
        QVERIFY(contains(body(k), "k_row_cache"));
        std::vector<int64_t> symbols{777};
        QCOMPARE(k.launch.evaluate(symbols).grid[0], int64_t(777));
        compilesForSm90(k);
    }

    void randomOpsUsePhilox() {
        CudaKernel k = generate(kiln::testing::cuda::randomAdd(1 << 20));
        QVERIFY(contains(body(k), "kiln_rand_f32("));
        QCOMPARE(k.args.back().name, std::string("rng_seed"));
        compilesForSm90(k);
    }

    void ptxWhenAsked() {
        if (!haveNvrtc()) QSKIP("NVRTC (libnvrtc.so.13) is not available on this machine");
        CudaKernel k = generate(kiln::testing::cuda::sinCos(4096));
        NvrtcOptions options;
        options.ptx = true;
        Expected<CompiledImage> image = compileWithNvrtc(k.source, k.name, options);
        QVERIFY(image.ok());
        QVERIFY(image->ptx);
        QVERIFY(contains(image->image, ".target sm_90"));
        QVERIFY(contains(image->image, ".entry " + k.name));
    }

    void compileErrorIsADiagnostic() {
        if (!haveNvrtc()) QSKIP("NVRTC (libnvrtc.so.13) is not available on this machine");
        Expected<CompiledImage> image = compileWithNvrtc(
            "extern \"C\" __global__ void broken(float* p) { p[0] = undefined_name; }\n", "broken",
            NvrtcOptions{});
        QVERIFY(!image.ok());
        QCOMPARE(image.error().kind, std::string("CudaCompileError"));
        QVERIFY(contains(image.error().message, "broken"));
        QVERIFY(contains(image.error().message, "sm_90"));
        QVERIFY(contains(image.error().message, "undefined_name"));
        QVERIFY(!image.error().notes.empty());
    }

    void externKernelsAreRefused() {
        compiler::LoopProgram p;
        compiler::ScheduledKernel k;
        k.kind = compiler::ScheduledKernel::Kind::Extern;
        k.name = "extern_mm";
        Expected<CudaKernel> r = generateCudaKernel(p, k);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, std::string("CudaCodegenError"));
        QVERIFY(contains(r.error().message, "extern_mm"));
    }
};

QTEST_MAIN(TstCudaCodegen)
#include "tst_cuda_codegen.moc"
