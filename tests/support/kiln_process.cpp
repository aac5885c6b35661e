// SPDX-License-Identifier: MIT
#include "kiln_process.h"

#include "script_runner.h"

#include <QProcess>

namespace kiln::testing {

KilnProcess runKilnBinary(const QStringList& args, const QString& workDir,
                          const QProcessEnvironment& env, int timeoutMs) {
    QProcess p;
    p.setWorkingDirectory(workDir);
    p.setProcessEnvironment(env);
    p.start(binaryDir() + "/bin/kiln", args);
    KilnProcess r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "kiln did not finish in time";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace kiln::testing
