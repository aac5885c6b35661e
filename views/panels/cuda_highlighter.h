// SPDX-License-Identifier: MIT
/// \file
/// Highlighting for the Kernels panel's code view: the generated CUDA C++ of GPU kernels (C++
/// and CUDA keywords and types, CUDA builtins and intrinsics, numbers with their suffixes and
/// hex floats, line and block comments, preprocessor lines). The kernel IR above the code and
/// LLVM IR read as plain text with their `#`/`;` comments. Colours follow the view's palette as
/// the Python highlighter's do.
#pragma once

#include "palette_highlighter.h"

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

class QPlainTextEdit;

namespace kiln::views {

class CudaHighlighter final : public PaletteHighlighter {
    Q_OBJECT

public:
    enum class Token { Keyword, Builtin, Comment, Number, Preprocessor };

    explicit CudaHighlighter(QPlainTextEdit* view);

    QTextCharFormat format(Token token) const { return m_formats[int(token)]; }

protected:
    void highlightBlock(const QString& text) override;
    void setColours(bool dark) override;

private:
    struct Rule {
        QRegularExpression pattern;
        Token token;
    };
    std::vector<Rule> m_rules;
    QTextCharFormat m_formats[5];
};

} // namespace kiln::views
