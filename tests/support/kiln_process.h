// SPDX-License-Identifier: MIT
/// \file
/// Runs the built `kiln` executable as a separate process, as a user would: what the CLI
/// end-to-end tests share.
#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace kiln::testing {

struct KilnProcess {
    int exitCode = -1; ///< -1 when it crashed or did not finish in time
    QString out, err;
};

/// Runs `<build>/bin/kiln args...` in `workDir` and waits up to `timeoutMs`.
KilnProcess runKilnBinary(const QStringList& args, const QString& workDir,
                          const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                          int timeoutMs = 120000);

} // namespace kiln::testing
