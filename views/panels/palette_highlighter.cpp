// SPDX-License-Identifier: MIT
#include "palette_highlighter.h"

#include "python_highlighter.h"

#include <QEvent>
#include <QPlainTextEdit>

namespace kiln::views {

void PaletteHighlighter::usePalette(const QPalette& palette) {
    bool dark = isDarkPalette(palette);
    if (dark == m_dark) return;
    setColours(dark);
    rehighlight();
}

void PaletteHighlighter::followPalette(QPlainTextEdit* view) {
    view->installEventFilter(this);
}

bool PaletteHighlighter::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::PaletteChange)
        usePalette(static_cast<QWidget*>(watched)->palette());
    return QSyntaxHighlighter::eventFilter(watched, event);
}

} // namespace kiln::views
