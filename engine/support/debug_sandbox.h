// SPDX-License-Identifier: MIT
/// \file
/// Where a workload may write torch.compile's debug traces. A script can set
/// `torch._dynamo.config.debug_dir_root` and `trace.debug_dir` to any string, but workload
/// scripts must not write outside what the user chose: the host (kiln run, Kiln Studio) fixes one
/// root per process before the script starts, and every debug path is confined to it.
#pragma once

#include "support/expected.h"

#include <string>

namespace kiln::support {

/// The directory debug traces may go under: `--debug-dir` when given, else
/// $TORCH_COMPILE_DEBUG_DIR/torch_compile_debug, else <cwd>/torch_compile_debug (PyTorch's
/// defaults). Set once by the host; an empty string restores the default.
void setDebugSandboxRoot(const std::string& root);
std::string debugSandboxRoot();
/// True when the host chose the root (`--debug-dir`): it then also wins over
/// TORCH_COMPILE_DEBUG_DIR as the default of debug_dir_root.
bool debugSandboxRootIsSet();

/// `requested` (absolute, or relative to the working directory) as an absolute path when it is
/// the sandbox root or lies under it after resolving `..` and existing symbolic links; else a
/// PermissionError that names both paths. `what` names the setting in the message.
Expected<std::string> confineToDebugSandbox(const std::string& requested, const std::string& what);

} // namespace kiln::support
