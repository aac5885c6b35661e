// SPDX-License-Identifier: MIT
// The GPU checks (gpu_checks.h) as a Qt test: device tensors round trip bit for bit, the
// caching allocator under fragmentation on the real device, out of memory with PyTorch's
// message and the retry after releasing the cache, module load and launch, printing and
// torch.cuda in scripts. Skipped (reported as skipped) on machines without a CUDA device.
#include "gpu_checks.h"
#include "runtime/device_probe.h"

#include <QtTest>

class TstCudaDevice : public QObject {
    Q_OBJECT

private slots:
    void checks_data() {
        QTest::addColumn<int>("index");
        const auto& all = kiln::gpucheck::checks();
        for (size_t i = 0; i < all.size(); ++i)
            QTest::newRow(all[i].name) << int(i);
    }

    void checks() {
        const auto& probe = kiln::runtime::probeCuda();
        if (!probe.available()) QSKIP(kiln::runtime::noCudaDeviceMessage(probe).c_str());
        QFETCH(int, index);
        std::string log;
        std::string problem = kiln::gpucheck::checks()[size_t(index)].run(log);
        qInfo("%s", log.c_str());
        QVERIFY2(problem.empty(), problem.c_str());
    }
};

QTEST_GUILESS_MAIN(TstCudaDevice)
#include "tst_cuda_device.moc"
