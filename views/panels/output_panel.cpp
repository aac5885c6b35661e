// SPDX-License-Identifier: MIT
#include "output_panel.h"

#include "counted.h"
#include "table_export.h"
#include "trace_models.h"

#include <QColor>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace kiln::views {

namespace {

// OutputModel's columns.
constexpr int kStreamColumn = 0;
constexpr int kTimeColumn = 1;
constexpr int kTextColumn = 2;

/// OutputModel filtered by the text box, with stderr lines in red, log lines dimmed and times
/// right-aligned; the model itself stays free of QtGui.
class OutputLinesProxy final : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    QVariant data(const QModelIndex& index, int role) const override {
        if (role == Qt::ForegroundRole) {
            QString stream = index.siblingAtColumn(kStreamColumn).data().toString();
            if (stream == "stderr") return OutputPanel::stderrColour();
            if (stream == "log") return QColor(0x75, 0x75, 0x75);
            return {};
        }
        // A long log line is cut at the view's edge; its tooltip has all of it.
        if (role == Qt::ToolTipRole && index.column() == kTextColumn) {
            QString text = index.data().toString();
            return text.size() > 80 ? text : QVariant();
        }
        if (role == Qt::TextAlignmentRole && index.column() == kTimeColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QSortFilterProxyModel::data(index, role);
    }
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override {
        if (orientation == Qt::Horizontal && section == kTimeColumn && role == Qt::DisplayRole)
            return QStringLiteral("time (s)");
        return QSortFilterProxyModel::headerData(section, orientation, role);
    }
};

/// Times with millisecond precision; the model keeps them as numbers for CSV.
class TimeDelegate final : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    QString displayText(const QVariant& value, const QLocale& locale) const override {
        if (value.typeId() == QMetaType::Double) return locale.toString(value.toDouble(), 'f', 3);
        return QStyledItemDelegate::displayText(value, locale);
    }
};

} // namespace

OutputPanel::OutputPanel(TraceSession& session, Selection& selection, QWidget* parent)
    : Panel("output", "Output", session, selection, parent)
    , m_model(new OutputModel(this))
    , m_proxy(new OutputLinesProxy(this))
    , m_view(new QTableView)
    , m_filter(new QLineEdit)
    , m_count(new QLabel) {
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1); // "stderr" finds the stream, anything else the text

    m_filter->setPlaceholderText("Filter output (text or stream)");
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        updateCount();
    });

    m_view->setModel(m_proxy);
    m_view->setItemDelegate(new TimeDelegate(m_view));
    m_view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().lineSpacing() + 4);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft);
    addTableExportMenu(m_view);
    followTail();

    auto* top = new QHBoxLayout;
    top->setContentsMargins(6, 4, 6, 4);
    top->addWidget(m_filter, 1);
    top->addWidget(m_count);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    catchUp();
}

void OutputPanel::followTail() {
    QScrollBar* bar = m_view->verticalScrollBar();
    connect(bar, &QScrollBar::valueChanged, this, [this, bar](int value) {
        if (!m_adoptingRows) m_followTail = value >= bar->maximum();
    });
    // The range also grows when the view is laid out or resized after new rows came.
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int maximum) {
        if (m_followTail) bar->setValue(maximum);
    });
}

QColor OutputPanel::stderrColour() {
    return QColor(0xc6, 0x28, 0x28);
}

void OutputPanel::showSnapshot(const SnapshotPtr& snapshot) {
    bool sameRun = m_shown && snapshot && m_shown->run.id == snapshot->run.id;
    if (sameRun && m_shown->output.size() == snapshot->output.size()) {
        m_shown = snapshot;
        return; // nothing new: keep the user's selection and scroll position
    }
    QScrollBar* bar = m_view->verticalScrollBar();
    bool follow = !sameRun || m_followTail;
    int position = bar->value();
    m_shown = snapshot;
    m_adoptingRows = true; // the reset moves the scroll bar; that is not the user scrolling
    // The model shares the snapshot's rows (aliasing) instead of copying them.
    m_model->setRows(snapshot ? std::shared_ptr<const std::vector<trace::OutputLine>>(
                                    snapshot, &snapshot->output)
                              : nullptr);
    m_view->resizeColumnToContents(kStreamColumn);
    m_view->resizeColumnToContents(kTimeColumn);
    m_view->doItemsLayout(); // the scroll range must include the new rows first
    // Lines are only appended: the same value shows the same rows.
    bar->setValue(follow ? bar->maximum() : position);
    m_followTail = follow;
    m_adoptingRows = false;
    updateCount();
}

void OutputPanel::updateCount() {
    int total = m_model->rowCount();
    int shown = m_proxy->rowCount();
    m_count->setText(shown == total ? counted(total, "line")
                                    : QString("%1 of %2").arg(shown).arg(counted(total, "line")));
}

} // namespace kiln::views
