// SPDX-License-Identifier: MIT
// kiln-gpu-check [CUBIN]: runs the GPU checks (gpu_checks.h) on this machine's device 0 and
// prints what each measured; exit status 0 when all hold, 1 when one fails, 2 without a GPU.
#include "gpu_checks.h"
#include "runtime/device_probe.h"

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
    // Unbuffered: an assertion that aborts a check must not take the earlier lines with it.
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    if (argc > 1) kiln::gpucheck::setCubinPath(argv[1]);
    const auto& probe = kiln::runtime::probeCuda();
    if (!probe.available()) {
        std::printf("kiln-gpu-check: %s\n", kiln::runtime::noCudaDeviceMessage(probe).c_str());
        return 2;
    }
    int failed = 0;
    for (const auto& check : kiln::gpucheck::checks()) {
        std::string log, problem;
        std::printf("RUN  %s\n", check.name);
        try {
            problem = check.run(log);
        } catch (const std::exception& e) {
            problem = std::string("exception: ") + e.what();
        }
        std::fputs(log.c_str(), stdout);
        std::printf("%s %s%s%s\n", problem.empty() ? "PASS" : "FAIL", check.name,
                    problem.empty() ? "" : ": ", problem.c_str());
        failed += problem.empty() ? 0 : 1;
    }
    std::printf("%d of %zu checks failed\n", failed, kiln::gpucheck::checks().size());
    return failed ? 1 : 0;
}
