// SPDX-License-Identifier: MIT
/// \file
/// Runs script snippets in one interpreter, each as `__main__` from a file name of the test's
/// choosing: what the in-process unit tests of the script-facing APIs share.
#pragma once

#include "lang/interpreter.h"

#include <string>
#include <vector>

namespace kiln::testing {

class SnippetRunner {
public:
    /// `prelude` is prepended to every snippet ("import torch\n"); it shifts line numbers.
    SnippetRunner(lang::Interpreter& interp, std::string prelude, std::string file = "<test>");

    /// Runs `code`; returns "ErrorType: message" when it raises (a syntax error's rendering
    /// when it does not parse), else "". The parsed module is kept alive, since functions a
    /// snippet defines may be called later.
    std::string run(const std::string& code);

private:
    lang::Interpreter& m_interp;
    std::string m_prelude;
    std::string m_file;
    std::vector<lang::Module> m_keep;
};

} // namespace kiln::testing
