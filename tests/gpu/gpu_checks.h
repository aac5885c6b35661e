// SPDX-License-Identifier: MIT
/// \file
/// The checks that need a real GPU, Qt-free so they run both inside the Qt test
/// tst_cuda_device (label gpu, skipped without a device) and as the small kiln-gpu-check
/// program that travels to a GPU machine without Qt.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace kiln::gpucheck {

struct Check {
    const char* name;
    /// Returns "" when the check holds, else what went wrong. Writes what it measured to `log`.
    std::function<std::string(std::string& log)> run;
};

/// Every check, in the order they are worth running.
const std::vector<Check>& checks();

/// Set by kiln-gpu-check from its command line: a cubin for sm_XY to load (the PTX path is
/// always checked).
void setCubinPath(std::string path);

} // namespace kiln::gpucheck
