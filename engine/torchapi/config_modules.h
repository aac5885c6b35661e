// SPDX-License-Identifier: MIT
/// \file
/// The script-visible config modules, `torch._inductor.config` and `torch._dynamo.config`, and
/// `torch._inductor` (list_options, list_mode_options), over the option registries of
/// support/options.h.
///
/// Each interpreter has its own values of both registries. They start at the defaults with the
/// environment applied (as PyTorch reads it on import) and change when a script assigns an
/// attribute (`torch._inductor.config.max_autotune = True`, source "user") or when Kiln sets one
/// (setConfigOption). Scripts see Python objects, the capture layer sees OptionValues:
/// top-level options live in the config module's namespace (a module attribute assignment
/// cannot be intercepted), so reading the values from C++ first picks up what the script
/// assigned there; grouped options (`triton.cudagraphs`, `trace.enabled`) are properties of
/// the group objects and are recorded when assigned.
///
/// The capture layer sees these values through ScriptCompileConfig (support/compile_config.h)
/// and never includes this header: torch.compile's mode/options are validated by
/// capture/compile_options.h against `inductor()`, and each compile applies that patch to it.
#pragma once

#include "lang/interpreter.h"
#include "lang/option_value_script.h"
#include "support/compile_config.h"
#include "support/options.h"

#include <string_view>

namespace kiln::torchapi {

/// Registers torch._inductor, torch._inductor.config, torch._dynamo and torch._dynamo.config
/// and imports them, so that they are attributes of torch after `import torch` (PyTorch
/// imports them lazily on first access). Called from torch's own module initialisation.
void installConfigModules(lang::Interpreter& interp);

/// The current torch._inductor.config values of `interp` (defaults, environment, assignments).
/// The reference stays valid for the interpreter's lifetime; call again to see later changes.
const OptionValues& inductorConfig(lang::Interpreter& interp);
/// The current torch._dynamo.config values of `interp`.
const OptionValues& dynamoConfig(lang::Interpreter& interp);

/// Sets an option of `registry` (inductor or dynamo) as the run's configuration does, so that
/// scripts read it back too. `value` must be a plain value (not OtherValue).
void setConfigOption(lang::Interpreter& interp, const OptionRegistry& registry,
                     std::string_view key, OptionValue value, OptionSource source);

using lang::optionValueFromScript;
using lang::optionValueToScript;

/// The configuration the capture layer compiles with (support/compile_config.h), read from the
/// config modules of `interp`.
class ScriptCompileConfig final : public CompileConfig {
public:
    explicit ScriptCompileConfig(lang::Interpreter& interp)
        : m_interp(interp) {}
    const OptionValues& dynamo() override { return dynamoConfig(m_interp); }
    const OptionValues& inductor() override { return inductorConfig(m_interp); }

private:
    lang::Interpreter& m_interp;
};

} // namespace kiln::torchapi
