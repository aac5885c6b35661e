// SPDX-License-Identifier: MIT
/// \file
/// The configuration a run compiles with: the values of `torch._dynamo.config` and
/// `torch._inductor.config` as the script has set them. The capture layer reads it through this
/// interface; the torch API (torchapi/config_modules.h) implements it over the script-visible
/// config modules, so capture/, compiler/ and inductor/ never include the torch bindings.
#pragma once

#include "support/options.h"

namespace kiln {

class CompileConfig {
public:
    virtual ~CompileConfig() = default;
    /// torch._dynamo.config now (cache_size_limit, suppress_errors, debug_dir_root, ...). The
    /// reference stays valid until the next call.
    virtual const OptionValues& dynamo() = 0;
    /// torch._inductor.config now, before any torch.compile(mode=, options=) patch.
    virtual const OptionValues& inductor() = 0;
};

} // namespace kiln
