// SPDX-License-Identifier: MIT
/// \file
/// GuardsPanel: three tables over the selected entry's rows of the snapshot (no SQL here).
#include "guards_panel.h"

#include "table_export.h"
#include "trace_models.h"

#include <QComboBox>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>

namespace kiln::views {

namespace {

// Columns of the reused trace models (trace_models.cpp).
constexpr int kGuardCompileColumn = 0;
constexpr int kGuardKindColumn = 1;
constexpr int kGuardCheckColumn = 2;
constexpr int kGuardExpectedColumn = 3;
constexpr int kGuardLineColumn = 4;
constexpr int kRecompileCompileColumn = 0;
constexpr int kRecompileGuardColumn = 2;
constexpr int kRecompileExpectedColumn = 3;
constexpr int kRecompileActualColumn = 4;

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

/// Paints the expected value green and the actual one red and bold: the pair a user compares.
class ExpectedActualDelegate final : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override {
        QStyledItemDelegate::initStyleOption(option, index);
        if (index.column() == kRecompileExpectedColumn) {
            option->backgroundBrush = QColor(0xe6, 0xf4, 0xea);
            option->palette.setColor(QPalette::Text, QColor(0x1b, 0x5e, 0x20));
        } else if (index.column() == kRecompileActualColumn) {
            option->backgroundBrush = QColor(0xfd, 0xe7, 0xe9);
            option->palette.setColor(QPalette::Text, QColor(0xb7, 0x1c, 0x1c));
            option->font.setBold(true);
        }
    }
};

/// Marks the guards of the shown entry that failed later (when a newer entry was compiled), with
/// what they saw instead in a tooltip: the check that made the cache miss.
class FailedLaterDelegate final : public QStyledItemDelegate {
public:
    FailedLaterDelegate(const QHash<int, QString>& notes, const QSet<int>& notGuarded,
                        QObject* parent)
        : QStyledItemDelegate(parent)
        , m_notes(notes)
        , m_notGuarded(notGuarded) {}

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override {
        QStyledItemDelegate::initStyleOption(option, index);
        if (m_notGuarded.contains(index.row())) {
            option->font.setItalic(true);
            option->palette.setColor(QPalette::Text, QColor(0x75, 0x75, 0x75));
            return;
        }
        if (!m_notes.contains(index.row())) return;
        option->backgroundBrush = QColor(0xfd, 0xe7, 0xe9);
        option->palette.setColor(QPalette::Text, QColor(0xb7, 0x1c, 0x1c));
    }
    /// The whole check and expected value (both are elided in a narrow table) and why it is
    /// marked.
    bool helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
                   const QModelIndex& index) override {
        QString tip = index.siblingAtColumn(kGuardCheckColumn).data().toString();
        const QString expected = index.siblingAtColumn(kGuardExpectedColumn).data().toString();
        if (!expected.isEmpty()) tip += "\n" + QObject::tr("expected: %1").arg(expected);
        if (m_notes.contains(index.row())) tip += "\n" + m_notes.value(index.row());
        if (m_notGuarded.contains(index.row()))
            tip += "\n" + QObject::tr("Not guarded: read through an nn.Module, which PyTorch 2.3 "
                                      "does not guard (guard_nn_modules=False). Changing this "
                                      "value reuses the entry; its graph keeps the old value.");
        if (tip.isEmpty()) return QStyledItemDelegate::helpEvent(event, view, option, index);
        QToolTip::showText(event->globalPos(), tip, view);
        return true;
    }

private:
    const QHash<int, QString>& m_notes;
    const QSet<int>& m_notGuarded;
};

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setHighlightSections(false);
    addTableExportMenu(view);
    return view;
}

QGroupBox* box(const QString& title, QWidget* parent) {
    auto* b = new QGroupBox(title, parent);
    b->setFlat(true);
    return b;
}

QString frameName(const RunSnapshot& s, int64_t frameId) {
    const trace::FrameRow* f = s.frame(frameId);
    if (!f) return QString("frame %1").arg(frameId);
    const int line = f->kind == "resume" && f->resumeLine > 0 ? f->resumeLine : f->line;
    return QString("%1 (%2:%3)")
        .arg(text(f->function), QFileInfo(text(f->file)).fileName())
        .arg(line);
}

} // namespace

GuardsPanel::GuardsPanel(TraceSession& session, Selection& selection, QWidget* parent)
    : Panel("guards", tr("Guards & recompiles"), session, selection, parent)
    , m_guards(new GuardsModel(this))
    , m_recompiles(new RecompilesModel(this))
    , m_diff(new GuardDiffModel(this))
    , m_title(new QLabel(this)) {
    m_title->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_stack = new QStackedWidget(this);
    m_splitter = new QSplitter(Qt::Vertical, m_stack);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(makeGuardsBox());
    m_splitter->addWidget(makeRecompilesBox());
    m_splitter->addWidget(makeDiffBox());
    m_tabs = new QTabWidget(m_stack);
    m_tabs->setDocumentMode(true);
    m_stack->addWidget(m_splitter);
    m_stack->addWidget(m_tabs);
    // The arrangement follows the panel's size, so it must not hold the dock at its own
    // minimum (three tables side by side would keep it over 1,000 px wide).
    m_stack->setMinimumSize(1, 1);
    m_arrangement = Arrangement::SideBySide; // so that arrange() below lays the splitter out
    arrange(Arrangement::Stacked);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addWidget(m_stack, 1);
    catchUp();
}

QWidget* GuardsPanel::makeGuardsBox() {
    m_guardsBox = box(tr("Guards"), this);
    m_guardsTable = makeTable(m_guards, m_guardsBox);
    m_guardsTable->setColumnHidden(kGuardCompileColumn, true);
    m_guardsTable->setItemDelegate(
        new FailedLaterDelegate(m_failedLater, m_notGuarded, m_guardsTable));
    // The check and its expected value share what the short columns leave (elided, whole in the
    // tooltip): sized to contents, a module's repr pushed the check out of sight.
    QHeaderView* h = m_guardsTable->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::Stretch);
    h->setSectionResizeMode(kGuardKindColumn, QHeaderView::ResizeToContents);
    h->setSectionResizeMode(kGuardLineColumn, QHeaderView::ResizeToContents);
    m_guardsTable->setToolTip(tr("Click a line number to show it in the source"));
    connect(m_guardsTable, &QTableView::clicked, this,
            [this](const QModelIndex& i) { followLine(i, kGuardLineColumn); });
    auto* layout = new QVBoxLayout(m_guardsBox);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->addWidget(m_guardsTable);
    return m_guardsBox;
}

QWidget* GuardsPanel::makeRecompilesBox() {
    QGroupBox* b = m_recompilesBox = box(tr("Why it was compiled"), this);
    m_recompileSummary = new QLabel(b);
    // One line: a wrapped label in a splitter pane gets clipped instead of growing.
    m_recompileSummary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_recompilesTable = makeTable(m_recompiles, b);
    m_recompilesTable->setColumnHidden(kRecompileCompileColumn, true);
    m_recompilesTable->setItemDelegate(new ExpectedActualDelegate(m_recompilesTable));
    QHeaderView* h = m_recompilesTable->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(kRecompileGuardColumn, QHeaderView::Stretch);
    auto* layout = new QVBoxLayout(b);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->addWidget(m_recompileSummary);
    layout->addWidget(m_recompilesTable, 1);
    return b;
}

QWidget* GuardsPanel::makeDiffBox() {
    QGroupBox* b = m_diffBox = box(tr("Guard diff"), this);
    m_entryA = new QComboBox(b);
    m_entryB = new QComboBox(b);
    for (QComboBox* combo : {m_entryA, m_entryB}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(16);
        connect(combo, &QComboBox::currentIndexChanged, this, &GuardsPanel::showDiff);
    }
    m_diffSummary = new QLabel(b);
    auto* choose = new QHBoxLayout;
    choose->addWidget(new QLabel(tr("A"), b));
    choose->addWidget(m_entryA);
    choose->addWidget(new QLabel(tr("→ B"), b));
    choose->addWidget(m_entryB);
    choose->addSpacing(12);
    choose->addWidget(m_diffSummary, 1);
    m_diffTable = makeTable(m_diff, b);
    QHeaderView* h = m_diffTable->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(GuardDiffModel::CheckColumn, QHeaderView::Stretch);
    connect(m_diffTable, &QTableView::clicked, this,
            [this](const QModelIndex& i) { followLine(i, GuardDiffModel::LineColumn); });
    auto* layout = new QVBoxLayout(b);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->addLayout(choose);
    layout->addWidget(m_diffTable, 1);
    return b;
}

void GuardsPanel::resizeEvent(QResizeEvent* event) {
    Panel::resizeEvent(event);
    // Tabbed under the source in a 1600x1000 window the dock is some 660 x 200 px: stacked,
    // each table kept one or two rows; side by side, each some 200 px wide, the checks were
    // cut to "__...". Split only where every table still reads.
    constexpr int kReadableWidth = 380;  // a check and its expected value, elided
    constexpr int kReadableHeight = 150; // a title, a header and three rows
    const bool wideAndLow = 5 * width() > 9 * height();
    Arrangement wanted = Arrangement::Tabbed;
    if (wideAndLow && width() >= 3 * kReadableWidth)
        wanted = Arrangement::SideBySide;
    else if (!wideAndLow && height() >= 3 * kReadableHeight)
        wanted = Arrangement::Stacked;
    arrange(wanted);
}

void GuardsPanel::arrange(Arrangement wanted) {
    if (wanted == m_arrangement) return;
    const bool wasTabbed = m_arrangement == Arrangement::Tabbed;
    m_arrangement = wanted;
    const QList<QWidget*> boxes = {m_guardsBox, m_recompilesBox, m_diffBox};
    if (wanted == Arrangement::Tabbed) {
        for (QWidget* b : boxes)
            m_tabs->addTab(b, QString()); // takes it out of the splitter
        m_tabs->setCurrentIndex(m_pickedTab);
        updateTabLabels();
        m_stack->setCurrentWidget(m_tabs);
        return;
    }
    if (wasTabbed) {
        m_pickedTab = m_tabs->currentIndex();
        for (QWidget* b : boxes)
            m_splitter->addWidget(b); // takes it out of the tabs
    }
    m_splitter->setOrientation(wanted == Arrangement::SideBySide ? Qt::Horizontal : Qt::Vertical);
    const int stretch[] = {4, 2, 3};
    for (int i = 0; i < 3; ++i) {
        boxes[i]->show();
        m_splitter->setStretchFactor(i, stretch[i]);
    }
    m_stack->setCurrentWidget(m_splitter);
}

void GuardsPanel::updateTabLabels() {
    if (m_arrangement != Arrangement::Tabbed) return;
    const int guards = m_guards->rowCount() - static_cast<int>(m_notGuarded.size());
    const int failed = m_recompiles->rowCount();
    const int changes = m_diff->rowCount();
    m_tabs->setTabText(0, guards ? tr("Guards (%1)").arg(guards) : tr("Guards"));
    m_tabs->setTabText(1, failed ? tr("Why it was compiled (%1 failed)").arg(failed)
                                 : tr("Why it was compiled"));
    m_tabs->setTabText(2, changes ? tr("Guard diff (%1)").arg(changes) : tr("Guard diff"));
}

void GuardsPanel::showSnapshot(const SnapshotPtr& snapshot) {
    // A live run refreshes often: redraw only when what this panel shows changed, and keep
    // the entries the user picked for the diff.
    const QString entry = entryOf(selection().state());
    const QString shown = snapshot ? contentsOf(*snapshot, entry) : QString();
    if (entry == m_compileId && shown == m_shownContents && !entry.isEmpty()) return;
    const QString a = m_entryA->currentData().toString();
    const QString b = m_entryB->currentData().toString();
    const bool sameEntry = entry == m_compileId;
    showEntry(entry);
    if (!sameEntry || m_entryA->findData(a) < 0 || m_entryB->findData(b) < 0) return;
    {
        QSignalBlocker blockA(m_entryA), blockB(m_entryB);
        m_entryA->setCurrentIndex(m_entryA->findData(a));
        m_entryB->setCurrentIndex(m_entryB->findData(b));
    }
    showDiff();
}

QString GuardsPanel::contentsOf(const RunSnapshot& s, const QString& compileId) {
    const std::string id = compileId.toStdString();
    const trace::CompileRow* c = s.compile(id);
    const auto related = std::count_if(s.recompiles.begin(), s.recompiles.end(), [&](auto& r) {
        return r.compileId == id || r.failedCompileId == id;
    });
    return QString("%1 %2 %3 %4 %5")
        .arg(c ? text(c->status) : "-")
        .arg(s.guardsOf(id).size())
        .arg(related)
        .arg(s.compiles.size())
        .arg(s.guards.size());
}

void GuardsPanel::showSelection(const SelectionState& state) {
    const QString entry = entryOf(state);
    if (entry == m_compileId && !entry.isEmpty()) return;
    showEntry(entry);
}

QString GuardsPanel::entryOf(const SelectionState& state) const {
    if (!state.compileId.isEmpty() || !snapshot() || state.frameId < 0) return state.compileId;
    auto entries = snapshot()->compilesOf(state.frameId);
    return entries.empty() ? QString() : text(entries.back()->compileId);
}

void GuardsPanel::showEntry(const QString& compileId) {
    m_compileId = compileId;
    const SnapshotPtr& s = snapshot();
    m_shownContents = s ? contentsOf(*s, compileId) : QString();
    if (!s) return clear(tr("No run is loaded."));
    const trace::CompileRow* c =
        compileId.isEmpty() ? nullptr : s->compile(compileId.toStdString());
    if (!c)
        return clear(compileId.isEmpty()
                         ? tr("Select a cache entry in the Compiles tree to see its guards.")
                         : tr("%1 has not been recorded yet.").arg(compileId));
    m_title->setText(QString("%1 · %2 · %3 · %4")
                         .arg(compileId, frameName(*s, c->frameId), text(c->reason),
                              c->finished() ? text(c->status) : tr("compiling")));
    showGuards(*s, *c);
    showRecompiles(*s, *c);
    fillDiffChoices(*s, *c);
    // Tabbed, a recompile selected from the guards tab opens on why it was compiled: the
    // failed guard is what one looks for first. (Another tab the user picked stays.)
    if (c->reason == "recompile" && m_tabs->currentIndex() == 0 && m_recompiles->rowCount() > 0)
        m_tabs->setCurrentIndex(1);
}

void GuardsPanel::showGuards(const RunSnapshot& s, const trace::CompileRow& c) {
    // The checks first, then the reads the entry does not check.
    auto rows = std::make_shared<std::vector<trace::GuardRow>>();
    for (const trace::GuardRow* g : s.guardsOf(c.compileId))
        if (g->installed) rows->push_back(*g);
    const size_t installed = rows->size();
    m_notGuarded.clear();
    for (const trace::GuardRow* g : s.guardsOf(c.compileId))
        if (!g->installed) {
            m_notGuarded.insert(static_cast<int>(rows->size()));
            rows->push_back(*g);
        }
    m_failedLater.clear();
    for (const trace::RecompileRow& r : s.recompiles) {
        if (r.failedCompileId != c.compileId) continue;
        for (size_t i = 0; i < rows->size(); ++i) {
            const trace::GuardRow& g = (*rows)[i];
            if (g.source != r.guardSource || g.expected != r.expected) continue;
            QString& note = m_failedLater[static_cast<int>(i)];
            note += QString(note.isEmpty() ? "" : "\n") +
                    tr("failed for %1: expected %2, actual %3")
                        .arg(text(r.compileId), text(r.expected), text(r.actual));
        }
    }
    QString title = tr("Guards of %1 (%2)").arg(text(c.compileId)).arg(installed);
    if (!m_notGuarded.isEmpty())
        title += tr(" · grey: %1 reads through nn.Modules not guarded (guard_nn_modules=False)")
                     .arg(m_notGuarded.size());
    if (!m_failedLater.isEmpty())
        title += tr(" · red: failed for a later entry (hover for the values)");
    m_guardsBox->setTitle(title);
    m_guards->setRows(std::move(rows));
    updateTabLabels();
}

void GuardsPanel::showRecompiles(const RunSnapshot& s, const trace::CompileRow& c) {
    auto rows = std::make_shared<std::vector<trace::RecompileRow>>();
    QStringList replacedBy;
    for (const trace::RecompileRow& r : s.recompiles) {
        if (r.compileId == c.compileId) rows->push_back(r);
        if (r.failedCompileId == c.compileId) replacedBy << text(r.compileId);
    }
    QString summary =
        rows->empty() ? tr("%1 is the first cache entry of %2.")
                            .arg(text(c.compileId), frameName(s, c.frameId))
                      : tr("%1 was compiled because a guard of every older entry failed (below).")
                            .arg(text(c.compileId));
    if (!replacedBy.isEmpty())
        summary += " " + tr("Its own guards failed later, for %1.").arg(replacedBy.join(", "));
    m_recompileSummary->setText(summary);
    m_recompilesTable->setVisible(!rows->empty());
    m_recompiles->setRows(std::move(rows));
    updateTabLabels();
}

void GuardsPanel::fillDiffChoices(const RunSnapshot& s, const trace::CompileRow& c) {
    // The entry before this one in its frame: what the recompile changed.
    auto entries = s.compilesOf(c.frameId);
    const trace::CompileRow* previous = &c;
    for (size_t i = 1; i < entries.size(); ++i)
        if (entries[i]->compileId == c.compileId) previous = entries[i - 1];
    for (QComboBox* combo : {m_entryA, m_entryB}) {
        QSignalBlocker block(combo);
        combo->clear();
        for (const trace::CompileRow& e : s.compiles) {
            const trace::FrameRow* f = s.frame(e.frameId);
            combo->addItem(QString("%1 · %2").arg(text(e.compileId), f ? text(f->function) : ""),
                           text(e.compileId));
        }
    }
    m_entryA->setCurrentIndex(m_entryA->findData(text(previous->compileId)));
    m_entryB->setCurrentIndex(m_entryB->findData(text(c.compileId)));
    showDiff();
}

void GuardsPanel::showDiff() {
    const SnapshotPtr& s = snapshot();
    const QString a = m_entryA->currentData().toString();
    const QString b = m_entryB->currentData().toString();
    if (!s || a.isEmpty() || b.isEmpty()) {
        m_diff->setDiff({}, a, b);
        m_diffSummary->clear();
        updateTabLabels();
        return;
    }
    GuardDiff diff = diffGuards(s->guardsOf(a.toStdString()), s->guardsOf(b.toStdString()));
    m_diffSummary->setText(
        a == b ? tr("Pick two different entries to compare their guards.")
               : tr("%1 only in B (+), %2 only in A (−), %3 changed (~), %4 the same")
                     .arg(diff.count(GuardChange::Kind::OnlyInB))
                     .arg(diff.count(GuardChange::Kind::OnlyInA))
                     .arg(diff.count(GuardChange::Kind::Changed))
                     .arg(diff.unchanged));
    m_diff->setDiff(std::move(diff), a, b);
    updateTabLabels();
}

void GuardsPanel::clear(const QString& why) {
    m_title->setText(why);
    m_guardsBox->setTitle(tr("Guards"));
    m_failedLater.clear();
    m_notGuarded.clear();
    m_guards->setRows({});
    m_recompiles->setRows({});
    m_recompileSummary->clear();
    for (QComboBox* combo : {m_entryA, m_entryB}) {
        QSignalBlocker block(combo);
        combo->clear();
    }
    showDiff();
}

void GuardsPanel::followLine(const QModelIndex& index, int lineColumn) {
    if (index.column() != lineColumn) return;
    const int line = index.data().toInt();
    if (line > 0) selection().selectSourceLine(line);
}

} // namespace kiln::views
