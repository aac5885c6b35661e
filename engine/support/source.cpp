// SPDX-License-Identifier: MIT
#include "support/source.h"

namespace kiln {

SourceFile::SourceFile(std::string path, std::string text)
    : m_path(std::move(path))
    , m_text(std::move(text)) {
    m_lineStarts.push_back(0);
    for (size_t i = 0; i < m_text.size(); ++i) {
        if (m_text[i] == '\n' && i + 1 < m_text.size()) m_lineStarts.push_back(i + 1);
    }
}

std::string_view SourceFile::line(int line) const {
    if (line < 1 || line > lineCount()) return {};
    size_t begin = m_lineStarts[line - 1];
    size_t end = begin;
    while (end < m_text.size() && m_text[end] != '\n' && m_text[end] != '\r')
        ++end;
    return std::string_view(m_text).substr(begin, end - begin);
}

int64_t utf8Length(std::string_view text) {
    int64_t n = 0;
    for (unsigned char c : text)
        n += (c & 0xC0) != 0x80;
    return n;
}

} // namespace kiln
