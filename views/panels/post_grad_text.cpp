// SPDX-License-Identifier: MIT
#include "post_grad_text.h"

#include "counted.h"

namespace kiln::views {

QString postGradGraphsText(const RunSnapshot& snapshot, int64_t graphId) {
    QString text;
    for (const char* kind : {"post_grad_inference", "post_grad_forward", "post_grad_backward"}) {
        const trace::GraphRow* g = snapshot.aotGraph(graphId, kind);
        if (!g) continue;
        text += QString("%1# Inductor's post-grad %2 graph (graph %3, %4): what it lowered and "
                        "fused. PyTorch's log has no diagram of it.\n")
                    .arg(text.isEmpty() ? "" : "\n")
                    .arg(QString(kind).mid(10))
                    .arg(g->id)
                    .arg(counted(g->opCount, "op", "ops"));
        text += QString::fromStdString(g->readableCode);
    }
    return text;
}

} // namespace kiln::views
