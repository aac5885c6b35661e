// SPDX-License-Identifier: MIT
#include "snippet_runner.h"

#include "lang/parser.h"
#include "torchapi/install.h"

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

TorchSnippets::TorchSnippets(std::string prelude)
    : m_snippets(interp, std::move(prelude)) {
    torchapi::installTorch(interp);
}

QString TorchSnippets::print(const std::string& expr) {
    sink.out.clear();
    std::string error = run("print(" + expr + ")");
    if (!error.empty()) return QString::fromStdString(error);
    return QString::fromStdString(sink.out).trimmed();
}

lang::Value TorchSnippets::global(const char* name) {
    const lang::Value* v =
        interp.importModule("__main__")->globals.find(lang::Symbol::intern(name));
    return v ? *v : lang::Value();
}

} // namespace kiln::testing
