// SPDX-License-Identifier: MIT
/// \file
/// Headless views of a trace database: `kiln runs` and `kiln output`.
#pragma once

#include <string>

namespace kiln::app {

int listRuns(const std::string& tracePath);
int printOutput(const std::string& tracePath, const std::string& runFlag);

} // namespace kiln::app
