// SPDX-License-Identifier: MIT
#include "code_editor.h"

#include "python_highlighter.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QTextBlock>
#include <QToolTip>

namespace kiln::views {

namespace {

constexpr int kMarkerSlot = 13; // one slot per marker kind, left of the line numbers
// Frame, recompile and break slots; the error's slot only when the run ended with one.
constexpr int kMarkerSlots = 3;
const QColor kBreakColour(0xd3, 0x2f, 0x2f);
const QColor kFrameColour(0x19, 0x76, 0xd2);
const QColor kRecompileColour(0xef, 0x8c, 0x00);
const QColor kLineHighlight(0xff, 0xf3, 0xb0);
const QColor kBreakHighlight(0xff, 0xcd, 0xd2);
const QColor kErrorColour(0xb7, 0x1c, 0x1c);
const QColor kErrorHighlight(0xfd, 0xe4, 0xe4);

} // namespace

/// The gutter forwards painting, clicks and tooltips to its editor.
class LineGutter final : public QWidget {
public:
    explicit LineGutter(CodeEditor* editor)
        : QWidget(editor)
        , m_editor(editor) {
        setMouseTracking(true);
    }
    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* event) override { m_editor->paintGutter(event); }
    void mousePressEvent(QMouseEvent* event) override {
        int line = m_editor->lineAtY(event->position().toPoint().y());
        if (line > 0) Q_EMIT m_editor->gutterClicked(line);
    }
    bool event(QEvent* event) override {
        if (event->type() != QEvent::ToolTip) return QWidget::event(event);
        auto* help = static_cast<QHelpEvent*>(event);
        QString tip = m_editor->toolTipAt(m_editor->lineAtY(help->pos().y()));
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }

private:
    CodeEditor* m_editor;
};

CodeEditor::CodeEditor(QWidget* parent)
    : QPlainTextEdit(parent)
    , m_gutter(new LineGutter(this)) {
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    connect(this, &QPlainTextEdit::blockCountChanged, this,
            [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, &CodeEditor::updateGutter);
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

bool CodeEditor::setSourceText(const QString& text) {
    if (text == m_source) return false;
    m_source = text;
    setPlainText(text);
    // The new text starts at its top: the highlighted lines must be scrolled to again.
    m_line = 0;
    m_breakLine = 0;
    m_errorLine = 0;
    return true;
}

void CodeEditor::setMarkers(LineMarkers markers) {
    m_markers = std::move(markers);
    bool errorSlot = false;
    for (const auto& [line, list] : m_markers)
        for (const LineMarker& m : list)
            errorSlot = errorSlot || m.kind == MarkerKind::Error;
    if (errorSlot != m_errorSlot) {
        m_errorSlot = errorSlot;
        setViewportMargins(gutterWidth(), 0, 0, 0);
        QRect r = contentsRect();
        m_gutter->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
    }
    m_gutter->update();
}

const std::vector<LineMarker>& CodeEditor::markersAt(int line) const {
    static const std::vector<LineMarker> none;
    auto it = m_markers.find(line);
    return it == m_markers.end() ? none : it->second;
}

QString CodeEditor::toolTipAt(int line) const {
    QStringList parts;
    for (const LineMarker& m : markersAt(line)) {
        // A traceback's carets point at columns: they line up in a fixed-width font only.
        QString style = m.kind == MarkerKind::Error ? "white-space:pre; font-family:monospace"
                                                    : "white-space:pre";
        parts << QString("<p style='%1'>%2</p>")
                     .arg(style, m.toolTip.toHtmlEscaped().replace('\n', "<br>"));
    }
    return parts.join(QString());
}

void CodeEditor::highlightLines(int line, int breakLine) {
    bool moved = line != m_line || breakLine != m_breakLine;
    m_line = line;
    m_breakLine = breakLine;
    applyHighlights();
    if (moved) revealLine(breakLine > 0 ? breakLine : line);
}

bool CodeEditor::setErrorLine(int line) {
    if (line == m_errorLine) return false;
    m_errorLine = line;
    applyHighlights();
    m_gutter->update();
    return true;
}

void CodeEditor::revealLine(int line) {
    QTextBlock block = document()->findBlockByNumber(line - 1);
    if (line <= 0 || !block.isValid()) return;
    // A line already in view stays where it is: a click must not make the text jump.
    QRect shown = lineRect(line);
    if (!shown.isEmpty() && shown.top() >= 0 && shown.bottom() <= viewport()->height()) return;
    setTextCursor(QTextCursor(block));
    centerCursor();
}

void CodeEditor::applyHighlights() {
    QList<QTextEdit::ExtraSelection> selections;
    auto add = [&](int line, const QColor& colour) {
        QTextBlock block = document()->findBlockByNumber(line - 1);
        if (line <= 0 || !block.isValid()) return;
        QTextEdit::ExtraSelection s;
        s.format.setBackground(colour);
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(block);
        selections << s;
    };
    // On a dark palette the light tints would leave light text unreadable: darker ones there.
    bool dark = isDarkPalette(palette());
    if (m_errorLine != m_line && m_errorLine != m_breakLine)
        add(m_errorLine, dark ? kErrorHighlight.darker(400) : kErrorHighlight);
    if (m_line != m_breakLine) add(m_line, dark ? kLineHighlight.darker(300) : kLineHighlight);
    add(m_breakLine, dark ? kBreakHighlight.darker(300) : kBreakHighlight);
    // Last: a full-width tint painted after it would hide the squiggle.
    addErrorUnderline(selections, dark);
    setExtraSelections(selections);
}

void CodeEditor::addErrorUnderline(QList<QTextEdit::ExtraSelection>& selections, bool dark) {
    QTextBlock block = document()->findBlockByNumber(m_errorLine - 1);
    if (m_errorLine <= 0 || !block.isValid()) return;
    // The squiggle runs under the code, from its indentation to the end of the line.
    QString text = block.text();
    int start = 0;
    while (start < text.size() && text[start].isSpace())
        ++start;
    if (start == text.size()) return;
    QTextEdit::ExtraSelection s;
    s.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    s.format.setUnderlineColor(dark ? kErrorColour.lighter(170) : kErrorColour);
    s.cursor = QTextCursor(block);
    s.cursor.setPosition(block.position() + start);
    s.cursor.setPosition(block.position() + text.size(), QTextCursor::KeepAnchor);
    selections << s;
}

QRect CodeEditor::lineRect(int line) const {
    QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid() || !block.isVisible()) return {};
    QRectF r = blockBoundingGeometry(block).translated(contentOffset());
    return QRect(0, qRound(r.top()), viewport()->width(), qRound(r.height()));
}

int CodeEditor::markerSlots() const {
    return kMarkerSlots + (m_errorSlot ? 1 : 0);
}

int CodeEditor::gutterWidth() const {
    int digits = QString::number(qMax(1, blockCount())).size();
    return kMarkerSlot * markerSlots() + 8 +
           fontMetrics().horizontalAdvance(QLatin1Char('9')) * qMax(3, digits);
}

int CodeEditor::lineAtY(int y) const {
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        QRectF r = blockBoundingGeometry(block).translated(contentOffset());
        if (r.top() > viewport()->height()) break;
        if (y >= r.top() && y < r.bottom()) return block.blockNumber() + 1;
    }
    return 0;
}

void CodeEditor::resizeEvent(QResizeEvent* event) {
    // The highlighted line in view before stays in view when the editor shrinks (the break
    // details opening below it take most of the panel).
    const int focus = m_breakLine > 0 ? m_breakLine : m_line;
    const QRect before = focus > 0 ? lineRect(focus) : QRect();
    // (The viewport has its new size already: the old one is the widget's old height.)
    const bool wasShown = !before.isEmpty() && before.top() >= 0 &&
                          before.bottom() <= event->oldSize().height() - 2 * frameWidth();
    QPlainTextEdit::resizeEvent(event);
    QRect r = contentsRect();
    m_gutter->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
    if (wasShown) revealLine(focus);
}

void CodeEditor::mouseReleaseEvent(QMouseEvent* event) {
    QPlainTextEdit::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton || textCursor().hasSelection()) return;
    Q_EMIT lineClicked(cursorForPosition(event->position().toPoint()).blockNumber() + 1);
}

void CodeEditor::changeEvent(QEvent* event) {
    QPlainTextEdit::changeEvent(event);
    // The line tints are chosen for the palette: a light tint under a dark theme's light text
    // would leave the highlighted line unreadable.
    if (event->type() == QEvent::PaletteChange) applyHighlights();
}

void CodeEditor::updateGutter(const QRect& rect, int dy) {
    if (dy)
        m_gutter->scroll(0, dy);
    else
        m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
}

void CodeEditor::paintGutter(QPaintEvent* event) {
    QPainter painter(m_gutter);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    painter.setRenderHint(QPainter::Antialiasing);
    const int numberLeft = kMarkerSlot * markerSlots();
    const int numberWidth = m_gutter->width() - numberLeft - 6;
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        QRectF geometry = blockBoundingGeometry(block).translated(contentOffset());
        if (geometry.top() > event->rect().bottom()) break;
        int line = block.blockNumber() + 1;
        QRect row(0, qRound(geometry.top()), m_gutter->width(), qRound(geometry.height()));
        bool current = line == m_line || line == m_breakLine || line == m_errorLine;
        painter.setPen(current ? palette().color(QPalette::Text)
                               : palette().color(QPalette::PlaceholderText));
        painter.drawText(QRect(numberLeft, row.top(), numberWidth, row.height()),
                         Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
        paintMarkers(painter, row, markersAt(line));
    }
}

void CodeEditor::paintMarkers(QPainter& painter, const QRect& row,
                              const std::vector<LineMarker>& markers) {
    const int size = qMin(row.height() - 4, kMarkerSlot - 3);
    for (const LineMarker& m : markers) {
        int slot = static_cast<int>(m.kind);
        QRectF box(slot * kMarkerSlot + (kMarkerSlot - size) / 2.0,
                   row.top() + (row.height() - size) / 2.0, size, size);
        painter.setPen(Qt::NoPen);
        if (m.kind == MarkerKind::Break) {
            painter.setBrush(kBreakColour);
            painter.drawEllipse(box);
        } else if (m.kind == MarkerKind::Error) {
            paintErrorMarker(painter, box);
        } else if (m.kind == MarkerKind::Frame) {
            // A play-like triangle: compiled code starts here.
            QPainterPath path;
            path.moveTo(box.topLeft());
            path.lineTo(box.right(), box.center().y());
            path.lineTo(box.bottomLeft());
            path.closeSubpath();
            painter.fillPath(path, kFrameColour);
        } else {
            QPainterPath diamond;
            diamond.moveTo(box.center().x(), box.top());
            diamond.lineTo(box.right(), box.center().y());
            diamond.lineTo(box.center().x(), box.bottom());
            diamond.lineTo(box.left(), box.center().y());
            diamond.closeSubpath();
            painter.fillPath(diamond, kRecompileColour);
        }
    }
}

void CodeEditor::paintErrorMarker(QPainter& painter, const QRectF& box) {
    // A square with a white cross, not the break's round dot: the run stopped here.
    painter.setBrush(kErrorColour);
    painter.drawRoundedRect(box, 2, 2);
    QPen cross(Qt::white, qMax(1.5, box.width() / 6.0), Qt::SolidLine, Qt::RoundCap);
    painter.setPen(cross);
    QRectF inner = box.adjusted(box.width() * 0.28, box.height() * 0.28, -box.width() * 0.28,
                                -box.height() * 0.28);
    painter.drawLine(inner.topLeft(), inner.bottomRight());
    painter.drawLine(inner.topRight(), inner.bottomLeft());
    painter.setPen(Qt::NoPen);
}

} // namespace kiln::views
