// SPDX-License-Identifier: MIT
/// \file
/// Source text and positions. Lines and columns are 1-based as Python reports them; a span
/// covers [begin, end) on possibly several lines.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kiln {

struct SourcePos {
    int32_t line = 0;   ///< 1-based; 0 means unknown
    int32_t column = 0; ///< 1-based, counted in characters of the line
};

struct SourceSpan {
    SourcePos begin;
    SourcePos end;
    bool known() const { return begin.line > 0; }
};

/// One loaded script (or bundled library module). Immutable once built; shared by the AST,
/// diagnostics and tracebacks.
class SourceFile {
public:
    SourceFile(std::string path, std::string text);

    const std::string& path() const { return m_path; }
    const std::string& text() const { return m_text; }
    int lineCount() const { return static_cast<int>(m_lineStarts.size()); }
    /// The text of a 1-based line without its newline; empty when out of range.
    std::string_view line(int line) const;

private:
    std::string m_path;
    std::string m_text;
    std::vector<size_t> m_lineStarts;
};

using SourceFilePtr = std::shared_ptr<const SourceFile>;

/// Number of characters (code points) in a UTF-8 string.
int64_t utf8Length(std::string_view text);

} // namespace kiln
