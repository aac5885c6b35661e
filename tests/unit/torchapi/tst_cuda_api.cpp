// SPDX-License-Identifier: MIT
// torch.cuda and CUDA tensors as scripts see them, without a GPU:
// - the queries answer as PyTorch does on a machine without CUDA, and putting a tensor on the
//   GPU raises "no CUDA device was found: <why>";
// - tensors on a pretend device (host memory behind an Allocator that says cuda:0) go through
//   the same dispatch as real CUDA tensors: printing, moves, metadata and views work; mixed
//   devices are PyTorch's RuntimeError; ops without a device kernel are a NotImplementedError,
//   and no CPU kernel reads their memory (Tensor::rawData refuses it).
#include "lang/objects.h"
#include "pretend_cuda.h"
#include "runtime/device_probe.h"
#include "snippet_runner.h"
#include "tensor/device_transfer.h"
#include "tensor/error.h"
#include "tensor/ops.h"

#include <QtTest>
#include <cstring>

using namespace kiln;

namespace {

using testing::installPretendDevice;

std::string noGpu() {
    return runtime::noCudaDeviceMessage(runtime::probeCuda());
}

} // namespace

class TstCudaApi : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (runtime::probeCuda().available()) QSKIP("this machine has a CUDA device");
    }

    void queriesWithoutAGpu() {
        testing::TorchSnippets s;
        QCOMPARE(s.print("torch.cuda.is_available()"), QString("False"));
        QCOMPARE(s.print("torch.cuda.device_count()"), QString("0"));
        QCOMPARE(s.print("torch.cuda.memory_allocated()"), QString("0"));
        QCOMPARE(s.print("torch.cuda.max_memory_allocated()"), QString("0"));
        QCOMPARE(s.print("torch.cuda.memory_reserved()"), QString("0"));
        QCOMPARE(s.print("torch.cuda.empty_cache()"), QString("None"));
        QCOMPARE(s.print("torch.cuda.manual_seed(1)"), QString("None"));
        QCOMPARE(s.print("torch.cuda.manual_seed_all(1)"), QString("None"));
        QCOMPARE(s.print("repr(torch.device('cuda'))"), QString("device(type='cuda')"));
        QCOMPARE(s.print("repr(torch.device('cuda:0'))"), QString("device(type='cuda', index=0)"));
        QCOMPARE(s.print("torch.device('cuda:0')"), QString("cuda:0"));
        QCOMPARE(s.print("torch.zeros(2).is_cuda"), QString("False"));
        QCOMPARE(s.print("torch.cuda.OutOfMemoryError is torch.OutOfMemoryError"), QString("True"));
        QCOMPARE(s.print("issubclass(torch.OutOfMemoryError, RuntimeError)"), QString("True"));
        QCOMPARE(s.print("torch.OutOfMemoryError"), QString("<class 'torch.OutOfMemoryError'>"));
    }

    void gpuWorkWithoutAGpuSaysWhy() {
        QVERIFY(noGpu().rfind("no CUDA device was found: ", 0) == 0);
        testing::TorchSnippets s;
        const QString expected = QString::fromStdString("RuntimeError: " + noGpu());
        for (const char* expr :
             {"torch.zeros(2, device='cuda')", "torch.ones(2, device='cuda:0')",
              "torch.empty(2, 3, device=torch.device('cuda'))", "torch.randn(2, device='cuda')",
              "torch.tensor([1.0], device='cuda')", "torch.arange(3, device='cuda')",
              "torch.zeros(2).cuda()", "torch.zeros(2).to('cuda')",
              "torch.zeros(2).to('cuda', torch.float16)", "torch.cuda.synchronize()",
              "torch.cuda.current_device()", "torch.cuda.get_device_name()",
              "torch.cuda.get_device_capability()", "torch.cuda.Event(enable_timing=True)",
              "torch.cuda.Stream()", "torch.cuda.reset_peak_memory_stats()"})
            QCOMPARE(s.print(expr), expected);
        QCOMPARE(s.print("torch.zeros(2).cuda('cpu')"),
                 QString("RuntimeError: Invalid device, must be cuda device"));
    }

    void deviceTensorsPrintLikePyTorchs() {
        testing::TorchSnippets s("import torch\nimport pretend\n");
        installPretendDevice(s);
        QCOMPARE(s.print("pretend.cuda(torch.tensor([1.0, 2.5, -3.0]))"),
                 QString("tensor([ 1.0000,  2.5000, -3.0000], device='cuda:0')"));
        QCOMPARE(s.print("pretend.cuda(torch.arange(4))"),
                 QString("tensor([0, 1, 2, 3], device='cuda:0')"));
        QCOMPARE(s.print("pretend.cuda(torch.ones(2, 2, dtype=torch.float16))"),
                 QString("tensor([[1., 1.],\n        [1., 1.]], device='cuda:0', "
                         "dtype=torch.float16)"));
        QCOMPARE(s.print("pretend.cuda(torch.tensor(7))"), QString("tensor(7, device='cuda:0')"));
        QCOMPARE(s.print("pretend.cuda(torch.tensor([[1.5, -2.0], [0.25, 4.0]], "
                         "dtype=torch.bfloat16))"),
                 QString("tensor([[ 1.5000, -2.0000],\n        [ 0.2500,  4.0000]], "
                         "device='cuda:0', dtype=torch.bfloat16)"));
        QCOMPARE(s.print("pretend.cuda(torch.zeros(2, 2)).t().cpu()"),
                 QString("tensor([[0., 0.],\n        [0., 0.]])"));
    }

    void metadataViewsAndMovesWork() {
        testing::TorchSnippets s;
        installPretendDevice(s);
        const char* prelude = "import pretend\nx = pretend.cuda(torch.arange(6.0).view(2, 3))\n";
        QCOMPARE(s.run(std::string(prelude) +
                       "print(x.device, x.is_cuda, x.shape, x.dtype, x.get_device())\n"
                       "y = x.t()\nprint(y.device, y.shape, y.is_contiguous())\n"
                       "print(y.cpu())\nprint(x[1].cpu(), x.view(3, 2)[2].tolist())\n"
                       "print(x.cpu().device, x.to('cpu').sum().item(), x[0, 1].item())\n"
                       "print(x.to('cpu', torch.int32).dtype, x.cpu().is_cuda)\n"),
                 std::string());
        QCOMPARE(QString::fromStdString(s.sink.out),
                 QString("cuda:0 True torch.Size([2, 3]) torch.float32 0\n"
                         "cuda:0 torch.Size([3, 2]) False\n"
                         "tensor([[0., 3.],\n        [1., 4.],\n        [2., 5.]])\n"
                         "tensor([3., 4., 5.]) [4.0, 5.0]\n"
                         "cpu 15.0 1.0\n"
                         "torch.int32 False\n"));
    }

    void pythonNumbersFromDeviceTensorsCopyTheValue() {
        testing::TorchSnippets s("import torch\nimport pretend\n");
        installPretendDevice(s);
        QCOMPARE(
            s.print("float(pretend.cuda(torch.tensor(2.5))), int(pretend.cuda(torch.tensor(7))), "
                    "bool(pretend.cuda(torch.tensor([0.0]))), "
                    "f'{pretend.cuda(torch.tensor(1.25)):.1f}'"),
            QString("2.5 7 False 1.2"));
    }

    void mixedDevicesAreARuntimeError() {
        testing::TorchSnippets s;
        installPretendDevice(s);
        const std::string prelude = "import pretend\nx = pretend.cuda(torch.ones(3))\n";
        const std::string mixed = "RuntimeError: Expected all tensors to be on the same device, "
                                  "but found at least two devices, cuda:0 and cpu!";
        QCOMPARE(s.run(prelude + "x + torch.ones(3)"), mixed);
        QCOMPARE(s.run(prelude + "torch.ones(3) * x"), mixed);
        QCOMPARE(s.run(prelude + "torch.add(torch.ones(3), x)"), mixed);
        QCOMPARE(s.run(prelude + "torch.cat([x, torch.ones(3)])"), mixed);
        QCOMPARE(s.run(prelude + "torch.ones(2, 3) @ x"), mixed);
    }

    void opsWithoutADeviceKernelAreNotImplemented() {
        testing::TorchSnippets s;
        installPretendDevice(s);
        const std::string prelude = "import pretend\nx = pretend.cuda(torch.ones(3))\n";
        // No eager device ops installed here (the engine installs them, inductor/).
        const std::string tail = "' with arguments from the 'CUDA' backend: Kiln has no eager "
                                 "CUDA kernels in this build. Move the tensors to the CPU with "
                                 ".cpu() to run it there.";
        QCOMPARE(s.run(prelude + "x + 1"), "NotImplementedError: Could not run 'operator +" + tail);
        QCOMPARE(s.run(prelude + "-x"), "NotImplementedError: Could not run 'operator -" + tail);
        QCOMPARE(s.run(prelude + "x @ x"), "NotImplementedError: Could not run 'operator @" + tail);
        QCOMPARE(s.run(prelude + "torch.sin(x)"),
                 "NotImplementedError: Could not run 'aten::sin" + tail);
        QCOMPARE(s.run(prelude + "x.sum()"),
                 "NotImplementedError: Could not run 'aten::sum" + tail);
        QCOMPARE(s.run(prelude + "x.add_(x)"),
                 "NotImplementedError: Could not run 'aten::add_" + tail);
        QCOMPARE(s.run(prelude + "torch.cat([x, x])"),
                 "NotImplementedError: Could not run 'aten::cat" + tail);
        QCOMPARE(s.run(prelude + "import torch.nn.functional as F\nF.relu(x)"),
                 "NotImplementedError: Could not run 'aten::relu" + tail);
        // A 0-dim CPU tensor may accompany device tensors (PyTorch moves it along).
        QCOMPARE(s.run(prelude + "torch.mul(x, torch.tensor(2.0))"),
                 "NotImplementedError: Could not run 'aten::mul" + tail);
    }

    void cpuKernelsCannotReadDeviceMemory() {
        // Paths that skip the dispatch check (C++ callers, graph executors) stop at rawData.
        tensor::Tensor x =
            tensor::copyFromHost(tensor::ones(std::vector<int64_t>{4}, {}), testing::pretendCuda());
        int copies = testing::pretendCuda().copiesToHost;
        try {
            (void)tensor::sum(x, {}, false);
            QFAIL("a CPU kernel read a device tensor");
        } catch (const tensor::TensorError& e) {
            QCOMPARE(e.kind(), tensor::ErrorKind::NotImplementedError);
            QCOMPARE(QString(e.what()),
                     QString("Could not run this operation on a tensor on cuda:0: Kiln has no CUDA "
                             "kernel for it yet, and its CPU kernels cannot read device memory. "
                             "Move the tensor to the CPU with .cpu() first."));
        }
        QCOMPARE(testing::pretendCuda().copiesToHost,
                 copies); // and nothing was copied behind its back
        QCOMPARE(tensor::item(tensor::sum(tensor::copyToHost(x), {}, false)).toDouble(), 4.0);
    }

    void outOfMemoryIsCatchableAsTorchOutOfMemoryError() {
        testing::TorchSnippets s;
        s.interp.registerNativeModule("oom", [](lang::Interpreter& i, lang::ModuleObject& m) {
            i.defineNative(m.globals, "fail",
                           [](lang::Interpreter&, const lang::CallArgs&, void*) -> lang::Value {
                               tensor::fail(tensor::ErrorKind::OutOfMemoryError,
                                            "CUDA out of memory. Tried to allocate 2.00 GiB.");
                           });
        });
        QCOMPARE(
            s.run("import oom\ntry:\n    oom.fail()\nexcept torch.cuda.OutOfMemoryError as e:\n"
                  "    print(type(e).__name__, isinstance(e, RuntimeError), e)\n"),
            std::string());
        QCOMPARE(
            QString::fromStdString(s.sink.out),
            QString("OutOfMemoryError True CUDA out of memory. Tried to allocate 2.00 GiB.\n"));
        QCOMPARE(
            s.run("import oom\noom.fail()"),
            std::string("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."));
    }
};

QTEST_GUILESS_MAIN(TstCudaApi)
#include "tst_cuda_api.moc"
