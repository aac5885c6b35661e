// SPDX-License-Identifier: MIT
/// \file
/// The per-interpreter state behind a config module, shared by the files that implement the
/// config modules (config_modules.cpp, config_patch.cpp); not for other users, who go through
/// config_modules.h.
#pragma once

#include "torchapi/config_modules.h"

#include <vector>

namespace kiln::torchapi::detail {

/// The option values of one config module in one interpreter. Kept in the module's namespace
/// (as __kiln_state__), so it lives exactly as long as the module.
class ConfigState final : public lang::NativeObject {
public:
    ConfigState(const OptionRegistry& registry, lang::ModuleObject& module, OptionValues values);

    /// Picks up assignments to top-level options, which land in the module's namespace. An
    /// assignment of the very object already there (True over True) is not seen as one.
    void sync(lang::Interpreter& interp);
    /// Gives option `index` the script value `v` (scripts read it back) from `source`.
    void assign(lang::Interpreter& interp, size_t index, lang::Value v, OptionSource source);

    const OptionRegistry& registry;
    lang::ModuleObject& module; ///< owns this state through its namespace
    OptionValues values;
    std::vector<lang::Value> scriptValues; ///< per option: the object scripts read
    std::vector<lang::Symbol> names;       ///< per option: its module attribute; invalid in groups
};

/// The state of `registry`'s module in `interp` (imported if needed), synced.
ConfigState& configState(lang::Interpreter& interp, const OptionRegistry& registry);

/// Adds `patch` (the context manager and decorator of PyTorch's config modules) to a module.
void installConfigPatch(lang::Interpreter& interp, lang::ModuleObject& module,
                        const OptionRegistry& registry);

} // namespace kiln::torchapi::detail
