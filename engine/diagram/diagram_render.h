// SPDX-License-Identifier: MIT
/// \file
/// Renders graph diagrams (DOT text, as the compiler records them in the trace's `diagrams`
/// table) to SVG or PNG in memory with the Graphviz C library (gvc/cgraph): no `dot` process, no
/// temporary files. Used by `kiln export-diagram` and Kiln Studio's graph view.
///
/// Graphviz keeps global state (its error channel, the layout plugins' statics), so every render
/// in the process is serialised by one mutex around one Graphviz context; renders are fast
/// (milliseconds for the graphs Kiln draws), so callers on several threads simply queue. What
/// Graphviz would print to stderr (syntax errors, a missing plugin) is captured and returned as
/// the Diagnostic's message instead.
#pragma once

#include "support/expected.h"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace kiln::diagram {

enum class ImageFormat { Svg, Png };

/// The most nodes and edges (together) renderDot lays out: about 3 s with `dot` on one core.
inline constexpr int kMaxDiagramElements = 3000;

/// "svg" or "png": Graphviz's output format name, also the usual file extension.
const char* imageFormatName(ImageFormat format);
/// The inverse of imageFormatName (lower-case only); nullopt for anything else.
std::optional<ImageFormat> parseImageFormat(std::string_view name);

/// How long a layout and render may take: far beyond what kMaxDiagramElements allows (~3 s),
/// short enough that a layout that never ends (Graphviz has some) is an error, not a hang.
inline constexpr std::chrono::milliseconds kDiagramTimeLimit{20000};

/// Lays out \p dot with Graphviz's \p layout engine ("dot", "neato", ...) and renders it as
/// \p format: SVG text, or the bytes of a PNG file (Graphviz's cairo renderer). Errors, all of
/// kind "DiagramError": empty or malformed DOT text (with Graphviz's own words, e.g. "syntax
/// error in line 1 near '->'"), a diagram of more than kMaxDiagramElements nodes and edges (its
/// layout would take minutes), a layout that takes longer than \p timeLimit or crashes Graphviz
/// (the layout runs in a child process, see time_limited_child.h, so neither reaches the
/// caller), a layout engine or output format whose plugin is not installed (with a note on how
/// to install it), and a build without Graphviz. Thread-safe.
Expected<std::string> renderDot(std::string_view dot, ImageFormat format,
                                std::string_view layout = "dot",
                                std::chrono::milliseconds timeLimit = kDiagramTimeLimit);

/// Whether this build was linked with Graphviz. When false every renderDot() fails.
bool graphvizAvailable();

} // namespace kiln::diagram
