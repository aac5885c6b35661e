// SPDX-License-Identifier: MIT
/// \file
/// How Studio names a graph, everywhere: by its graph id (the `graphs` row id), the number the
/// command line takes (`kiln kernels --graph`, `kiln export-diagram --graph`) and prints
/// (`kiln compiles`' graph column), and `kiln-studio --select graph:ID` selects. It is unique in
/// the trace, so it needs no run to be meaningful; the compile id follows as context. Positions
/// (the n-th graph of a run or of a compile) are not shown as ids: they differ from these.
#pragma once

#include <QString>
#include <cstdint>
#include <string>

namespace kiln::views {

/// "graph 43".
inline QString graphName(int64_t graphId) {
    return QStringLiteral("graph %1").arg(graphId);
}

/// "graph 43 · 0/1": the name and the compile it belongs to.
inline QString graphNameIn(int64_t graphId, const std::string& compileId) {
    return graphName(graphId) + QStringLiteral(" · ") + QString::fromStdString(compileId);
}

} // namespace kiln::views
