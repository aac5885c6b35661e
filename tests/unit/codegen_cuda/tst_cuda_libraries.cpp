// SPDX-License-Identifier: MIT
// The cuBLASLt and CUPTI wrappers where no GPU is present: both libraries load (dlopen), and
// what needs a device fails with a clear message instead of crashing. With a GPU, CUPTI starts
// and these checks are skipped (the device checks in tests/gpu cover that machine).
#include "codegen/cuda/cublaslt.h"
#include "codegen/cuda/cupti.h"

#include <QTest>

using namespace kiln;
using namespace kiln::codegen::cuda;

class TstCudaLibraries : public QObject {
    Q_OBJECT
private slots:
    void cuptiWithoutADriverSaysWhy() {
        Expected<uint32_t> version = CuptiSession::version();
        if (!version) QSKIP("libcupti.so.13 is not installed here");
        QVERIFY(*version >= 130000);
        auto session = CuptiSession::start();
        if (session) QSKIP("CUPTI started: this machine has a GPU driver");
        QCOMPARE(session.error().kind, std::string("CudaUnavailable"));
        QVERIFY(session.error().message.rfind("CUPTI unavailable: ", 0) == 0);
        // Without a driver cuptiActivityEnable gives CUPTI_ERROR_UNKNOWN.
        QVERIFY2(session.error().message.find("cuptiActivityEnable") != std::string::npos,
                 session.error().message.c_str());
        // A failed start leaves nothing enabled: a second try says the same.
        auto again = CuptiSession::start();
        QVERIFY(!again.ok());
        QCOMPARE(again.error().message, session.error().message);
    }

    void cublasLtLoadsAndPlansOrSaysWhy() {
        Expected<CublasLt*> lt = CublasLt::instance();
        if (!lt) {
            QVERIFY(lt.error().message.rfind("cuBLASLt unavailable: ", 0) == 0);
            return;
        }
        QVERIFY((*lt)->version().rfind("13.", 0) == 0);
        MatmulShape shape;
        shape.dtype = MatmulDType::BFloat16;
        shape.m = 8192;
        shape.n = 16384;
        shape.k = 4096;
        shape.transposeB = true;
        shape.epilogue = MatmulEpilogue::Bias;
        auto plan = (*lt)->plan(shape, size_t(32) << 20);
        // The heuristic asks the device for its properties: without one, a CublasError.
        if (!plan) {
            QCOMPARE(plan.error().kind, std::string("CublasError"));
            QVERIFY(!plan.error().message.empty());
            return;
        }
        QVERIFY((*plan)->candidates() > 0);
        QVERIFY((*plan)->workspaceBytes() <= size_t(32) << 20);
    }
};

QTEST_MAIN(TstCudaLibraries)
#include "tst_cuda_libraries.moc"
