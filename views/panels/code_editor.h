// SPDX-License-Identifier: MIT
/// \file
/// A read-only code view with a gutter: line numbers and markers (graph breaks, compiled frame
/// starts, recompile sites, the error that ended the run) with tooltips. It highlights the line
/// the user asked to see, the selected graph break's line and the error's line, and reports
/// clicks on the gutter and on the text by line.
#pragma once

#include <QPlainTextEdit>
#include <map>
#include <vector>

namespace kiln::views {

enum class MarkerKind { Frame, Recompile, Break, Error };

struct LineMarker {
    MarkerKind kind = MarkerKind::Frame;
    QString toolTip;
    int breakOrder = 0; ///< the graph break's execution order; 0 for other markers
};

/// Markers by 1-based line.
using LineMarkers = std::map<int, std::vector<LineMarker>>;

class CodeEditor final : public QPlainTextEdit {
    Q_OBJECT

public:
    explicit CodeEditor(QWidget* parent = nullptr);

    /// Shows \p text unless it is the text already shown: setting it again would reset the
    /// scroll position, the cursor and the highlighting. Returns whether the text changed.
    bool setSourceText(const QString& text);

    void setMarkers(LineMarkers markers);
    const std::vector<LineMarker>& markersAt(int line) const;
    /// Every marker's tooltip on \p line, one paragraph each; empty when it has none.
    QString toolTipAt(int line) const;

    /// Highlights \p line (0: none) and the selected break's \p breakLine (0: none). When they
    /// differ from the lines highlighted before (or the text is new), scrolls the break line, or
    /// else \p line, into view; the same lines again (a live run's refresh) leave the scroll
    /// position where the user put it.
    void highlightLines(int line, int breakLine);
    int highlightedLine() const { return m_line; }
    int highlightedBreakLine() const { return m_breakLine; }
    /// Marks \p line (0: none) as where the run stopped with an error: a red tint and a wavy
    /// underline that the other highlights do not hide. Returns whether the line changed.
    bool setErrorLine(int line);
    int errorLine() const { return m_errorLine; }
    /// Scrolls \p line into the middle of the view unless it is already in view.
    void revealLine(int line);

    /// \p line's rectangle in viewport (and gutter) coordinates; empty when it is not shown.
    QRect lineRect(int line) const;
    QWidget* gutter() const { return m_gutter; }

Q_SIGNALS:
    /// The user clicked the gutter at \p line.
    void gutterClicked(int line);
    /// The user clicked (without selecting text) on \p line.
    void lineClicked(int line);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    friend class LineGutter;

    int markerSlots() const;
    int gutterWidth() const;
    int lineAtY(int y) const;
    void paintGutter(QPaintEvent* event);
    void paintMarkers(QPainter& painter, const QRect& row, const std::vector<LineMarker>& markers);
    void updateGutter(const QRect& rect, int dy);
    void applyHighlights();
    void addErrorUnderline(QList<QTextEdit::ExtraSelection>& selections, bool dark);
    void paintErrorMarker(QPainter& painter, const QRectF& box);

    QWidget* m_gutter;
    QString m_source; ///< the text last given to setSourceText
    LineMarkers m_markers;
    int m_line = 0;
    int m_breakLine = 0;
    int m_errorLine = 0;
    bool m_errorSlot = false; ///< some marker is an error's: the gutter has room for it
};

} // namespace kiln::views
