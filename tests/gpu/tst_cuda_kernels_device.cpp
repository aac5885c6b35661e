// SPDX-License-Identifier: MIT
// Generated kernels on a real GPU (label gpu): softmax, gelu(layer_norm) and sin+cos compiled
// for the device's compute capability, run on fresh random inputs with poisoned outputs, and
// compared with a double-precision host reference. Without a driver or a device every case is
// skipped, not passed. The driver calls go through bench/gpu/cuda_driver.h, test code the
// runtime layer replaces at integration.
#include "../../bench/gpu/cuda_driver.h"
#include "../../bench/gpu/host_reference.h"
#include "codegen/cuda/cuda_codegen.h"
#include "cuda_workloads.h"

#include <QTest>

using namespace kiln;
using namespace kiln::bench::gpu;
using namespace kiln::codegen::cuda;

class TstCudaKernelsDevice : public QObject {
    Q_OBJECT
    int m_cc = 0;
    std::string m_skip;

    /// Runs the graph's kernel on `inputs` and returns its first output.
    HostTensor run(const testing::cuda::FusedGraph& g, const std::vector<HostTensor>& inputs) {
        Driver& drv = driver();
        NvrtcOptions nvrtc;
        nvrtc.computeCapability = m_cc;
        KernelCache cache("");
        auto k = compileCudaKernel(g.program, g.kernel(), nvrtc, {}, &cache);
        if (!k) qFatal("%s", k.error().render().c_str());
        CUmodule module = nullptr;
        CUfunction fn = nullptr;
        CHECK_CU(drv.cuModuleLoadData(&module, k->image.image.data()));
        CHECK_CU(drv.cuModuleGetFunction(&fn, module, k->kernel.name.c_str()));
        std::vector<CUdeviceptr> ptrs;
        std::vector<size_t> bytes;
        for (const KernelArg& a : k->kernel.args) {
            const compiler::Buffer& b = g.program.buffer(a.id);
            size_t n = static_cast<size_t>(compiler::evaluate(compiler::product(b.sizes), {}, {}) *
                                           tensor::itemSize(b.dtype));
            CUdeviceptr p = 0;
            CHECK_CU(drv.cuMemAlloc(&p, n));
            if (b.origin == compiler::Buffer::Origin::Input)
                CHECK_CU(drv.cuMemcpyHtoD(p, inputs.at(size_t(b.inputIndex)).bytes.data(), n));
            else
                CHECK_CU(drv.cuMemsetD8(p, 0xff, n));
            ptrs.push_back(p);
            bytes.push_back(n);
        }
        std::vector<void*> args;
        for (CUdeviceptr& p : ptrs)
            args.push_back(&p);
        LaunchDims d = k->kernel.launch.evaluate({});
        CHECK_CU(drv.cuLaunchKernel(fn, unsigned(d.grid[0]), 1, 1, unsigned(d.block[0]), 1, 1, 0,
                                    nullptr, args.data(), nullptr));
        CHECK_CU(drv.cuCtxSynchronize());
        HostTensor out;
        for (size_t i = 0; i < k->kernel.args.size(); ++i)
            if (k->kernel.args[i].id == g.outputs.at(0).buffer) {
                out.dtype = k->kernel.args[i].dtype;
                out.bytes.resize(bytes[i]);
                CHECK_CU(drv.cuMemcpyDtoH(out.bytes.data(), ptrs[i], bytes[i]));
            }
        for (CUdeviceptr p : ptrs)
            drv.cuMemFree(p);
        return out;
    }

private slots:
    void initTestCase() {
        Driver& drv = driver();
        if (!drv.load()) {
            m_skip = "no CUDA driver: " + drv.error;
            return;
        }
        CUdevice dev = 0;
        if (drv.cuInit(0) != CUDA_SUCCESS || drv.cuDeviceGet(&dev, 0) != CUDA_SUCCESS) {
            m_skip = "no CUDA device";
            return;
        }
        if (!nvrtcVersion()) {
            m_skip = nvrtcVersion().error().message;
            return;
        }
        int major = 0, minor = 0;
        drv.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
        drv.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
        m_cc = major * 10 + minor;
        CUcontext ctx = nullptr;
        CHECK_CU(drv.cuDevicePrimaryCtxRetain(&ctx, dev));
        CHECK_CU(drv.cuCtxSetCurrent(ctx));
    }

    void softmaxMatchesTheHost() {
        if (!m_skip.empty()) QSKIP(m_skip.c_str());
        const size_t rows = 300, cols = 4096;
        HostTensor x = randomTensor(rows * cols, tensor::DType::Float32, 1, 3.0);
        HostTensor out = run(testing::cuda::softmax(rows, cols), {x});
        Reference ref = rowsRef(x, rows, cols, cols,
                                [&](const double* v, double* o) { softmaxRow(v, o, cols); });
        Comparison c = compare(out, ref);
        QCOMPARE(c.unwritten, size_t(0));
        QVERIFY2(c.relativeError <= 1e-5, std::to_string(c.relativeError).c_str());
    }

    void geluLayerNormMatchesTheHost() {
        if (!m_skip.empty()) QSKIP(m_skip.c_str());
        const size_t rows = 100, cols = 768;
        std::vector<HostTensor> in = {randomTensor(rows * cols, tensor::DType::Float32, 2),
                                      randomTensor(cols, tensor::DType::Float32, 3, 0.5, 1.0),
                                      randomTensor(cols, tensor::DType::Float32, 4, 0.5)};
        HostTensor out = run(testing::cuda::geluLayerNorm(rows, cols), in);
        Reference ref = rowsRef(in[0], rows, cols, cols, [&](const double* v, double* o) {
            geluLayerNormRow(v, o, cols, in[1], in[2]);
        });
        Comparison c = compare(out, ref);
        QCOMPARE(c.unwritten, size_t(0));
        QVERIFY2(c.relativeError <= 1e-5, std::to_string(c.relativeError).c_str());
    }

    void sinCosMatchesTheHost() {
        if (!m_skip.empty()) QSKIP(m_skip.c_str());
        HostTensor x = randomTensor(100003, tensor::DType::Float32, 5);
        HostTensor out = run(testing::cuda::sinCos(100003), {x});
        Comparison c = compare(out, sinCosRef({x}, {}));
        QCOMPARE(c.unwritten, size_t(0));
        QVERIFY2(c.relativeError <= 1e-5, std::to_string(c.relativeError).c_str());
    }
};

QTEST_MAIN(TstCudaKernelsDevice)
#include "tst_cuda_kernels_device.moc"
