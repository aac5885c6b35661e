// SPDX-License-Identifier: MIT
// libFuzzer target: the lexer and parser on arbitrary bytes, as `kiln run` hands them a script
// (source decoding, tokens, indentation, the AST, the resolver's scopes). A malformed script
// must come back as a Diagnostic, never a crash, a hang, a leak or undefined behaviour.
#include "lang/parser.h"
#include "support/source.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    auto source = std::make_shared<kiln::SourceFile>("<fuzz>.py", std::move(text));
    auto parsed = kiln::lang::parseModule(source);
    // A failure is a Diagnostic with a kind and a message, never an empty one.
    if (!parsed.ok() && (parsed.error().kind.empty() || parsed.error().render().empty()))
        __builtin_trap();
    return 0;
}
