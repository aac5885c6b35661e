// SPDX-License-Identifier: MIT
/// \file
/// What a front end needs to offer the engine's choices without linking the engine: the
/// torch.compile modes, backends and every inductor option with its default (Studio's run
/// toolbar and option editor), and rendering a recorded diagram to an image (Studio's graph
/// view). Light on purpose: it links the support and diagram layers only.
#pragma once

#include "support/expected.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kiln::api {

struct OptionInfo {
    std::string name;        ///< "max_autotune", "triton.cudagraphs"
    std::string type;        ///< as PyTorch annotates it: "bool", "int", "Optional[str]"
    std::string defaultRepr; ///< repr of the default: True, 64, 'fork', None
    std::string description;
    std::string envVar; ///< the variable that overrides it; empty when none
};

/// torch._inductor.config's options in declaration order.
std::vector<OptionInfo> inductorOptions();
/// The modes in list_mode_options() order: default, reduce-overhead, ...
std::vector<std::string> compileModes();
/// The (option, repr of value) pairs a mode sets; empty for "default" or an unknown mode.
std::vector<std::pair<std::string, std::string>> modeOptionReprs(std::string_view mode);
/// The backends `kiln run --backend` accepts without a script registering one.
std::vector<std::string> builtinBackends();

/// Lays out \p dot with Graphviz and renders it as \p format ("svg" or "png"): SVG text or PNG
/// bytes; a Diagnostic when the text is malformed or Graphviz is not available.
Expected<std::string> renderDiagram(std::string_view dot, std::string_view format);

} // namespace kiln::api
