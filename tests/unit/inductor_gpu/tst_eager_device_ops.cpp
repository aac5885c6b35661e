// SPDX-License-Identifier: MIT
// Eager ops on CUDA tensors as single-op graphs through the compiler, on a machine without a
// GPU: tensors on a pretend device (host memory behind an Allocator that says cuda:0) reach
// the handler the engine installs, which builds the op's graph, decomposes and schedules it and
// caches the outcome per signature. Without a GPU the kernels cannot be built, so every op
// ends in NotImplementedError naming why; which why shows what the compiler made of the op.
#include "inductor/eager_device_ops.h"
#include "inductor/eager_result_dtype.h"
#include "lang/ast.h"
#include "lang/native_types.h"
#include "lang/objects.h"
#include "pretend_cuda.h"
#include "runtime/device_probe.h"
#include "snippet_runner.h"
#include "tensor/device_transfer.h"
#include "tensor/ops.h"

#include <QtTest>
#include <cstring>

using namespace kiln;

using testing::installPretendDevice;

class TstEagerDeviceOps : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (runtime::probeCuda().available()) QSKIP("this machine has a CUDA device");
        inductor::installEagerDeviceOps();
    }

    void resultDtypesFollowPyTorch() {
        testing::TorchSnippets s;
        using tensor::DType;
        using Form = lang::DeviceOpCall::Form;
        auto t = [](DType d, std::vector<int64_t> sizes = {4}) {
            return lang::Value(tensor::zeros(sizes, {d}));
        };
        auto dtypeOf = [&](Form form, const char* name, std::vector<lang::Value> args,
                           uint8_t code = 0) {
            lang::DeviceOpCall call{form, name, code, lang::CallArgs{args, {}, {}}};
            return inductor::eagerResultDtype(s.interp, call);
        };
        auto binary = static_cast<uint8_t>(lang::BinaryOperator::Add);
        auto div = static_cast<uint8_t>(lang::BinaryOperator::Div);
        QCOMPARE(dtypeOf(Form::Function, "sin", {t(DType::Int64)}), DType::Float32);
        QCOMPARE(dtypeOf(Form::Function, "sin", {t(DType::BFloat16)}), DType::BFloat16);
        QCOMPARE(
            dtypeOf(Form::Binary, "+", {t(DType::BFloat16), lang::Value::fromFloat(2.5)}, binary),
            DType::BFloat16);
        QCOMPARE(dtypeOf(Form::Binary, "+", {t(DType::Int32), lang::Value::fromInt(2)}, binary),
                 DType::Int32);
        QCOMPARE(dtypeOf(Form::Binary, "+", {t(DType::Int32), lang::Value::fromFloat(2)}, binary),
                 DType::Float32);
        QCOMPARE(dtypeOf(Form::Binary, "/", {t(DType::Int64), t(DType::Int64)}, div),
                 DType::Float32);
        QCOMPARE(dtypeOf(Form::Binary, "+", {t(DType::Float16), t(DType::Float32, {})}, binary),
                 DType::Float16);
        QCOMPARE(dtypeOf(Form::Compare, "<", {t(DType::Float32), t(DType::Float32)}), DType::Bool);
        QCOMPARE(dtypeOf(Form::Method, "sum", {t(DType::Bool), lang::Value::fromInt(0)}),
                 DType::Int64);
        QCOMPARE(dtypeOf(Form::Method, "argmax", {t(DType::Float32)}), DType::Int64);
        QCOMPARE(
            dtypeOf(Form::Method, "to", {t(DType::Float32), lang::dtypeValue(DType::BFloat16)}),
            DType::BFloat16);
        QCOMPARE(dtypeOf(Form::Method, "float", {t(DType::Float16)}), DType::Float32);
        QCOMPARE(dtypeOf(Form::Function, "linear",
                         {t(DType::BFloat16, {2, 4}), t(DType::BFloat16, {3, 4}),
                          t(DType::BFloat16, {3})}),
                 DType::BFloat16);
        QCOMPARE(dtypeOf(Form::Function, "softmax", {t(DType::Float32), lang::Value::fromInt(-1)}),
                 DType::Float32);
    }

    void signaturesAreCompiledOnce() {
        testing::TorchSnippets s;
        installPretendDevice(s);
        const std::string prelude = "import pretend\nimport torch.nn.functional as F\n"
                                    "x = pretend.cuda(torch.randn(8, 64))\n"
                                    "w = pretend.cuda(torch.randn(32, 64))\n";
        // A product alone has no generated kernel: the graph compiles here, and running it
        // (cuBLASLt) is what needs the GPU.
        long before = inductor::eagerDeviceCompileCount();
        QVERIFY(s.run(prelude + "F.linear(x, w)").find("no CUDA device was found") !=
                std::string::npos);
        QCOMPARE(inductor::eagerDeviceCompileCount(), before + 1);
        s.run(prelude + "F.linear(x, w)");
        QCOMPARE(inductor::eagerDeviceCompileCount(), before + 1);
        s.run(prelude + "F.linear(x[:4], w)");
        QCOMPARE(inductor::eagerDeviceCompileCount(), before + 2);
    }

    void halfPrecisionAttentionIsTheFusedKernel() {
        testing::TorchSnippets s;
        installPretendDevice(s);
        const std::string prelude = "import pretend\nimport torch.nn.functional as F\n"
                                    "q = pretend.cuda(torch.randn(2, 3, 16, 64).bfloat16())\n"
                                    "m = pretend.cuda(torch.randn(16, 16) > 0)\n"
                                    "f = pretend.cuda(torch.randn(2, 3, 16, 64))\n"
                                    "p = pretend.cuda(torch.randn(2, 3, 16, 40).bfloat16())\n";
        // flash_attention is an extern kernel, like a product: the graph compiles without a
        // GPU (no kernel is generated) and only running it needs the device.
        std::string fused =
            s.run(prelude + "F.scaled_dot_product_attention(q, q, q, is_causal=True)");
        QVERIFY2(fused.find("no CUDA device was found") != std::string::npos, fused.c_str());
        QVERIFY2(fused.find("Could not run 'aten::") == std::string::npos, fused.c_str());
        // A mask (or float32, or a head size the kernel lacks) is the decomposition, whose
        // softmax is a generated kernel.
        for (const char* call : {"F.scaled_dot_product_attention(q, q, q, attn_mask=m)",
                                 "F.scaled_dot_product_attention(f, f, f)",
                                 "F.scaled_dot_product_attention(p, p, p)"}) {
            std::string out = s.run(prelude + call);
            QVERIFY2(out.find("Could not run 'aten::scaled_dot_product_attention'") !=
                         std::string::npos,
                     (std::string(call) + ": " + out).c_str());
        }
    }

    void writesNeedNoKernel() {
        // zero_, fill_ and copy_ only write: any layout, dtype and source device, no kernel
        // to generate (so they run here, on the pretend device, through host memory).
        testing::TorchSnippets s;
        installPretendDevice(s);
        const std::string prelude = "import pretend\n"
                                    "x = pretend.cuda(torch.arange(12.).view(3, 4))\n"
                                    "i = pretend.cuda(torch.arange(6).view(2, 3))\n";
        auto after = [&](const std::string& op, const std::string& shown) {
            s.sink.out.clear();
            std::string error = s.run(prelude + op + "\nprint(" + shown + ", end='')");
            return QString::fromStdString(error.empty() ? s.sink.out : error);
        };
        QCOMPARE(after("x.zero_()", "x.cpu().sum().item()"), QString("0.0"));
        QCOMPARE(after("x.t()[1:3].fill_(2.5)", "x.cpu().tolist()"),
                 QString("[[0.0, 2.5, 2.5, 3.0], [4.0, 2.5, 2.5, 7.0], [8.0, 2.5, 2.5, 11.0]]"));
        QCOMPARE(after("i.fill_(torch.tensor(7))", "i.cpu().tolist()"),
                 QString("[[7, 7, 7], [7, 7, 7]]"));
        QCOMPARE(after("x[:, 0].copy_(torch.tensor([1.5, 2.5, 3.5]))", "x.cpu()[:, :2].tolist()"),
                 QString("[[1.5, 1.0], [2.5, 5.0], [3.5, 9.0]]"));
        QCOMPARE(after("i.copy_(x[:2, :3])", "(i.cpu().tolist(), i.dtype)"),
                 QString("([[0, 1, 2], [4, 5, 6]], torch.int64)"));
        QCOMPARE(after("x.copy_(torch.ones(4))", "x.cpu().sum().item()"), QString("12.0"));
        QVERIFY(
            s.run(prelude + "x.fill_(pretend.cuda(torch.ones(2)))")
                .find("RuntimeError: fill_ only supports 0-dimension value tensor but got tensor "
                      "with 1 dimensions.") != std::string::npos);
    }

    void opsWithoutAGpuKernelSayWhy() {
        testing::TorchSnippets s;
        installPretendDevice(s);
        const std::string prelude = "import pretend\nx = pretend.cuda(torch.randn(4, 3))\n";
        // Generated kernels need the device to be built for.
        QCOMPARE(s.run(prelude + "torch.sin(x)"),
                 "NotImplementedError: Could not run 'aten::sin' with arguments from the 'CUDA' "
                 "backend: Kiln has no CUDA kernel for it: " +
                     runtime::noCudaDeviceMessage(runtime::probeCuda()) +
                     ". Move the tensors to the CPU with .cpu() to run it there.");
        // A copy is a kernel too (contiguous and clone compute nothing else), never a trip
        // through host memory.
        for (const char* copy : {"x.t().contiguous()", "x.clone()"}) {
            std::string out = s.run(prelude + copy);
            QVERIFY2(out.find("NotImplementedError: Could not run 'aten::") == 0 &&
                         out.find("no CUDA device was found") != std::string::npos,
                     out.c_str());
        }
        // An op the compiler only runs through an eager kernel names the call it could not
        // express.
        std::string sorted = s.run(prelude + "torch.sort(x, 1)");
        QVERIFY2(sorted.find("Could not run 'aten::sort' with arguments from the 'CUDA' backend") !=
                     std::string::npos,
                 sorted.c_str());
        QVERIFY2(sorted.find("sort(f32[4, 3], 1)") != std::string::npos, sorted.c_str());
    }
};

QTEST_GUILESS_MAIN(TstEagerDeviceOps)
#include "tst_eager_device_ops.moc"
