// SPDX-License-Identifier: MIT
#include "snippet_runner.h"

#include "lang/parser.h"

namespace kiln::testing {

SnippetRunner::SnippetRunner(lang::Interpreter& interp, std::string prelude, std::string file)
    : m_interp(interp)
    , m_prelude(std::move(prelude))
    , m_file(std::move(file)) {}

std::string SnippetRunner::run(const std::string& code) {
    auto parsed = lang::parseModule(std::make_shared<SourceFile>(m_file, m_prelude + code));
    if (!parsed.ok()) return parsed.error().render();
    m_keep.push_back(std::move(parsed).value());
    try {
        m_interp.runMain(m_keep.back());
    } catch (lang::PyException& e) {
        return lang::formatExceptionOnly(m_interp, e.exception);
    }
    return {};
}

} // namespace kiln::testing
