// SPDX-License-Identifier: MIT
/// \file
/// The script-facing API of the capture engine: torch.compile; torch._dynamo's reset,
/// disable, list_backends, register_backend, mark_dynamic, graph_break, explain and exc;
/// torch.compiler's reset, disable, list_backends and is_compiling. Installed into an
/// interpreter once its CaptureEngine exists.
#pragma once

#include "capture/capture_engine.h"

namespace kiln::capture {

void installCompileApi(lang::Interpreter& interp, CaptureEngine& engine);

/// Calls a recorded compiled function again with its latest arguments, as the script did.
lang::Value callSiteAgain(lang::Interpreter& interp, CaptureEngine& engine,
                          const CompiledCallSite& site);

/// torch._dynamo.explain (explain_api.cpp).
void installExplainApi(lang::Interpreter& interp, CaptureEngine& engine,
                       lang::ModuleObject& dynamo);

} // namespace kiln::capture
