// SPDX-License-Identifier: MIT
/// \file
/// Tokens of the workload language (Python's lexical structure).
#pragma once

#include "support/source.h"

#include <cstdint>
#include <string>

namespace kiln::lang {

enum class TokenKind : uint8_t {
    EndOfFile,
    Newline,
    Indent,
    Dedent,
    Name,
    Int,
    Float,
    String,  ///< text holds the decoded value
    FString, ///< text holds the raw body between the quotes (parsed by the parser)
    Op,      ///< operators and delimiters; text holds the spelling
};

struct Token {
    TokenKind kind = TokenKind::EndOfFile;
    std::string text;
    int64_t intValue = 0;
    double floatValue = 0.0;
    bool rawString = false; ///< FString only: an rf-string (no escape processing)
    SourceSpan span;
    /// FString only: position of the first body character, for spans of embedded expressions.
    SourcePos bodyStart;

    bool is(TokenKind k) const { return kind == k; }
    bool isOp(const char* spelling) const { return kind == TokenKind::Op && text == spelling; }
    bool isName(const char* name) const { return kind == TokenKind::Name && text == name; }
};

} // namespace kiln::lang
