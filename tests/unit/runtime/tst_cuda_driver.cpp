// SPDX-License-Identifier: MIT
// The dlopen'ed CUDA driver without a GPU: a missing driver library and the CUDA toolkit's stub
// (its cuInit returns CUDA_ERROR_STUB_LIBRARY) are each reported with a clear reason; every
// entry point the runtime needs is found in the stub by its CUDA 13 ABI name; and the ABI
// numbers Kiln declares itself agree with cuda.h where the toolkit is installed.
#include "runtime/cuda_context.h"
#include "runtime/cuda_driver.h"
#include "runtime/device_probe.h"

#include <QFileInfo>
#include <QtTest>

#ifdef KILN_HAVE_CUDA_H
#include <cuda.h>
static_assert(kiln::runtime::cu::kSuccess == CUDA_SUCCESS);
static_assert(kiln::runtime::cu::kErrorOutOfMemory == CUDA_ERROR_OUT_OF_MEMORY);
static_assert(kiln::runtime::cu::kErrorNotInitialized == CUDA_ERROR_NOT_INITIALIZED);
static_assert(kiln::runtime::cu::kErrorStubLibrary == CUDA_ERROR_STUB_LIBRARY);
static_assert(kiln::runtime::cu::kErrorNoDevice == CUDA_ERROR_NO_DEVICE);
static_assert(kiln::runtime::cu::kErrorNotReady == CUDA_ERROR_NOT_READY);
static_assert(kiln::runtime::cu::kAttrMultiprocessorCount ==
              CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
static_assert(kiln::runtime::cu::kAttrComputeCapabilityMajor ==
              CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
static_assert(kiln::runtime::cu::kAttrComputeCapabilityMinor ==
              CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
static_assert(kiln::runtime::cu::kFuncAttrMaxDynamicSharedBytes ==
              CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
static_assert(kiln::runtime::cu::kEventDisableTiming == CU_EVENT_DISABLE_TIMING);
static_assert(kiln::runtime::cu::kStreamNonBlocking == CU_STREAM_NON_BLOCKING);
static_assert(kiln::runtime::cu::kRequiredDriverVersion <= CUDA_VERSION);
static_assert(sizeof(kiln::runtime::cu::DevicePtr) == sizeof(CUdeviceptr));
static_assert(sizeof(kiln::runtime::cu::Device) == sizeof(CUdevice));
#endif

using namespace kiln::runtime;

namespace {

const char* kStub = "/usr/local/cuda/lib/stubs/libcuda.so";

} // namespace

class TstCudaDriver : public QObject {
    Q_OBJECT

private slots:
    void missingDriverIsReportedAsNotInstalled() {
        auto d = loadCudaDriver("libkiln-test-no-such-driver.so.1");
        QVERIFY(!d);
        QCOMPARE(d.error().kind, std::string("CudaUnavailable"));
        QVERIFY2(d.error().message.rfind("the CUDA driver (libkiln-test-no-such-driver.so.1) is "
                                         "not installed: ",
                                         0) == 0,
                 d.error().message.c_str());
        CudaProbe p = probeCudaLibrary("libkiln-test-no-such-driver.so.1");
        QCOMPARE(p.status, CudaStatus::NoDriver);
        QVERIFY(!p.available());
        QVERIFY(noCudaDeviceMessage(p).rfind("no CUDA device was found: the CUDA driver "
                                             "(libkiln-test-no-such-driver.so.1) is not "
                                             "installed: ",
                                             0) == 0);
    }

    void theToolkitStubIsNotADriver() {
        if (!QFileInfo::exists(kStub)) QSKIP("the CUDA toolkit's driver stub is not installed");
        auto d = loadCudaDriver(kStub);
        QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str()); // every entry point found
        QCOMPARE((*d)->init(0), cu::kErrorStubLibrary);
        CudaProbe p = probeCudaLibrary(kStub);
        QCOMPARE(p.status, CudaStatus::StubDriver);
        QVERIFY(p.driverLoaded);
        QVERIFY(!p.initialised);
        QCOMPARE(p.deviceCount, 0);
        QCOMPARE(QString::fromStdString(p.describe()),
                 QString("none (libcuda.so.1 is the CUDA toolkit's stub library, not an NVIDIA "
                         "driver (cuInit returned CUDA_ERROR_STUB_LIBRARY))"));
    }

    void theStubNamesItsErrors() {
        if (!QFileInfo::exists(kStub)) QSKIP("the CUDA toolkit's driver stub is not installed");
        auto loaded = loadCudaDriver(kStub);
        QVERIFY(loaded.ok());
        const CudaDriver& d = **loaded;
        // The stub answers cuGetErrorName itself or fails it; either way the text names the code.
        std::string text = d.errorText(cu::kErrorOutOfMemory);
        QVERIFY2(text == "CUDA error 2" || text.rfind("CUDA_ERROR_OUT_OF_MEMORY", 0) == 0,
                 text.c_str());
    }

    void noDeviceMeansNoContext() {
        // This process's driver is whatever the loader finds; on a machine without a GPU the
        // context request fails with the probe's reason instead of crashing.
        if (probeCuda().available()) QSKIP("this machine has a CUDA device");
        auto c = cudaContext(0);
        QVERIFY(!c);
        QCOMPARE(c.error().kind, std::string("CudaUnavailable"));
        QVERIFY(c.error().message.rfind("no CUDA device was found: ", 0) == 0);
    }
};

QTEST_GUILESS_MAIN(TstCudaDriver)
#include "tst_cuda_driver.moc"
