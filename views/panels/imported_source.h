// SPDX-License-Identifier: MIT
/// \file
/// What Source says for a run imported from PyTorch whose user file is not on this machine: the
/// recorded path, how to point Kiln to the file, and the stacks the log recorded (each
/// compiled frame and each graph break's user stack) in its place.
#pragma once

#include "run_snapshot.h"

#include <QString>

namespace kiln::views {

/// The text shown instead of the file (plain text, several lines).
QString missingImportedSourceText(const RunSnapshot& snapshot);

} // namespace kiln::views
