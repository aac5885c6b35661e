// SPDX-License-Identifier: MIT
/// \file
/// Runs workload scripts in-process through the engine's api (exactly what `kiln run` does)
/// and captures what they print, for golden and end-to-end tests.
#pragma once

#include "api/run.h"

#include <QString>
#include <string>

namespace kiln::testing {

struct ScriptRun {
    api::RunResult result;
    std::string stdoutText;
    std::string stderrText;
    std::string setupError; ///< non-empty when the run could not start
};

/// Runs `scriptPath` with its trace written to `tracePath` (a fresh temporary file by default).
ScriptRun runScript(const std::string& scriptPath, const std::string& tracePath = {},
                    double timeoutSeconds = 0);

/// Reads a whole file; empty when it does not exist.
std::string readFile(const QString& path);

/// The source tree (KILN_SOURCE_DIR, set by CTest).
QString sourceDir();
/// The build tree (KILN_BINARY_DIR, set by CTest).
QString binaryDir();

} // namespace kiln::testing
