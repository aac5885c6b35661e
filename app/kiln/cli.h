// SPDX-License-Identifier: MIT
/// \file
/// Command-line parsing for the kiln executable: subcommands with flags, usage text, and
/// errors that name the offending argument.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kiln::app {

struct CommandLine {
    std::string command; ///< "run", "runs", "output", "help", "version"
    std::vector<std::string> positional;
    std::map<std::string, std::string> flags; ///< "--db" -> value; boolean flags -> ""
    std::vector<std::string> argv;            ///< the whole command line, for the trace
};

/// Parses argv; on a usage error returns nullopt and sets `error`.
std::optional<CommandLine> parseCommandLine(int argc, char** argv, std::string& error);

std::string usageText();

} // namespace kiln::app
