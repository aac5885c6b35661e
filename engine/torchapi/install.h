// SPDX-License-Identifier: MIT
/// \file
/// Makes the script-visible modules importable in an interpreter: torch, torch.nn,
/// torch.nn.functional, torch.nn.init, torch.cuda and math.
#pragma once

#include "lang/interpreter.h"

#include <span>

namespace kiln::torchapi {

struct TorchOptions {
    /// "cpu" or "cuda": where tensors go when a script names no device (kiln run --device).
    std::string defaultDevice = "cpu";
    /// Runs at the end of `import torch` (the capture layer adds torch.compile and friends):
    /// torch is set up on first import, so a script sees its errors where it imports it.
    lang::NativeModuleInit onImported;
};

void installTorch(lang::Interpreter& interp, const TorchOptions& options = {});

/// Bundled Python sources of library modules (torch.nn and friends), generated at build time
/// from engine/torchapi/py/.
struct EmbeddedModule {
    const char* name;
    const char* path;
    const char* source;
};
std::span<const EmbeddedModule> embeddedModules();

} // namespace kiln::torchapi
