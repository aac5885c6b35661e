// SPDX-License-Identifier: MIT
/// \file
/// Runs script snippets in one interpreter, each as `__main__` from a file name of the test's
/// choosing: what the in-process unit tests of the script-facing APIs share.
#pragma once

#include "lang/interpreter.h"

#include <QString>
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

/// Collects what a script writes: stdout in `out`, stderr and log lines in `err`.
class OutputCapture final : public EventSink {
public:
    void output(OutputStream stream, std::string_view text) override {
        (stream == OutputStream::Stdout ? out : err) += text;
    }
    std::string out, err;
};

/// An interpreter with torch installed whose snippets start with `prelude` ("import torch\n").
class TorchSnippets {
public:
    explicit TorchSnippets(std::string prelude = "import torch\n");

    std::string run(const std::string& code) { return m_snippets.run(code); }
    /// What `print(expr)` shows without the trailing newline, or the error it raises.
    QString print(const std::string& expr);
    /// A global of `__main__` (Empty when missing).
    lang::Value global(const char* name);

    OutputCapture sink;
    lang::Interpreter interp{sink};

private:
    SnippetRunner m_snippets;
};

} // namespace kiln::testing
