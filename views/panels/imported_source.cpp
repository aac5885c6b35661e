// SPDX-License-Identifier: MIT
#include "imported_source.h"

namespace kiln::views {

QString missingImportedSourceText(const RunSnapshot& s) {
    auto qs = [](const std::string& t) { return QString::fromStdString(t); };
    QString text =
        s.sourceFile.empty()
            ? QStringLiteral("The imported log names no source file.\n")
            : QString("PyTorch compiled %1, which is not on this machine.\nLocate Source "
                      "File… (above) opens your copy of it, with the markers.\n")
                  .arg(qs(s.sourceFile));
    if (!s.frames.empty()) text += "\nCompiled frames, as the log recorded them:\n";
    for (const trace::FrameRow& f : s.frames)
        text += QString("  %1  %2:%3\n").arg(qs(f.function), qs(f.file)).arg(f.line);
    for (const trace::GraphBreakRow& b : s.graphBreaks) {
        text += QString("\nGraph break %1 (%2) at %3:%4: %5\n")
                    .arg(b.order)
                    .arg(qs(b.compileId), qs(b.file))
                    .arg(b.line)
                    .arg(qs(b.reason).section('\n', 0, 0));
        if (!b.userStack.empty()) text += qs(b.userStack) + "\n";
    }
    return text;
}

} // namespace kiln::views
