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
/// How the capture layer uses this for torch.compile(fn, mode=m, options=o) with the inductor
/// backend: at torch.compile time, `OptionPatch p = inductorCompilePatch(interp, m, o)` (raises
/// PyTorch's RuntimeErrors); at each compile, `OptionValues c = applyPatch(inductorConfig(interp),
/// p)` is the configuration to compile with, and `configEvents(c)` are the ConfigEvents to emit.
/// `dynamoConfig(interp)` gives the dynamo options (cache_size_limit, suppress_errors, ...).
#pragma once

#include "lang/interpreter.h"
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

/// torch.compile(mode=, options=) with backend="inductor", validated as PyTorch 2.3 does when
/// torch.compile is called: raises RuntimeError (or the AttributeError Python would raise for
/// an options object without items() or a key that is not a str) in the script.
OptionPatch inductorCompilePatch(lang::Interpreter& interp, const lang::Value& mode,
                                 const lang::Value& options);

/// A script value as an option value: None, bool, int, float, str, a list of str, or
/// OtherValue for anything else.
OptionValue optionValueFromScript(lang::Interpreter& interp, const lang::Value& value);
/// The script value of a plain option value (a new list for a list of str).
lang::Value optionValueToScript(const OptionValue& value);

} // namespace kiln::torchapi
