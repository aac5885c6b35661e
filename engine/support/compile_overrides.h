// SPDX-License-Identifier: MIT
/// \file
/// What a run changes in every torch.compile call of its script, so one workload runs under
/// several modes or backends without edits (`kiln run --mode max-autotune`).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln {

struct CompileOverrides {
    std::optional<std::string> mode;    ///< replaces mode= (and the script's options=)
    std::optional<std::string> backend; ///< replaces backend=
    /// Options merged over the script's options= ("key", "value text": true/false, numbers,
    /// anything else a string).
    std::vector<std::pair<std::string, std::string>> options;
    std::optional<bool> dynamic;   ///< replaces dynamic= (nullopt keeps the script's)
    bool dynamicAuto = false;      ///< --dynamic auto: dynamic=None whatever the script says
    std::optional<bool> fullgraph; ///< replaces fullgraph=

    bool empty() const {
        return !mode && !backend && options.empty() && !dynamic && !dynamicAuto && !fullgraph;
    }
};

} // namespace kiln
