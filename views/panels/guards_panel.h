// SPDX-License-Identifier: MIT
/// \file
/// The Guards & recompiles panel, for the selected cache entry: (a) its guards as PyTorch
/// prints them, (b) when it is a recompile, the guard that failed in each older entry with the
/// expected and actual values, and (c) a diff of its guards against another entry's (by
/// default the frame's previous entry). Each table exports as CSV from its context menu.
#pragma once

#include "guard_diff.h"
#include "panel.h"

#include <QHash>
#include <QSet>

class QComboBox;
class QGroupBox;
class QLabel;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace kiln::views {

class GuardsModel;
class RecompilesModel;

class GuardsPanel final : public Panel {
    Q_OBJECT

public:
    GuardsPanel(TraceSession& session, Selection& selection, QWidget* parent = nullptr);

    /// The entry shown ("f/c"); empty when none.
    const QString& compileId() const { return m_compileId; }
    QTableView* guardsTable() const { return m_guardsTable; }
    QTableView* recompilesTable() const { return m_recompilesTable; }
    QTableView* diffTable() const { return m_diffTable; }
    QComboBox* diffEntryA() const { return m_entryA; }
    QComboBox* diffEntryB() const { return m_entryB; }
    QLabel* recompileSummary() const { return m_recompileSummary; }
    QLabel* diffSummary() const { return m_diffSummary; }
    /// Why guard row \p row of the shown entry is marked: the newer entries it failed for;
    /// empty when it never failed.
    QString laterFailure(int row) const { return m_failedLater.value(row); }
    /// Whether a row is a read the entry does not check (shown greyed after the guards).
    bool isNotGuarded(int row) const { return m_notGuarded.contains(row); }

    /// How the three tables share the panel: side by side in a wide, low dock (each then has
    /// the dock's height), one above the other in a tall one, and one at a time in tabs when
    /// the dock is small both ways (split three ways, no table would show a readable row).
    enum class Arrangement { SideBySide, Stacked, Tabbed };
    Arrangement tablesArrangement() const { return m_arrangement; }
    /// The tabs of the Tabbed arrangement (their labels count what each table holds).
    QTabWidget* tabs() const { return m_tabs; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showSnapshot(const SnapshotPtr& snapshot) override;
    void showSelection(const SelectionState& state) override;

private:
    QWidget* makeGuardsBox();
    QWidget* makeRecompilesBox();
    QWidget* makeDiffBox();
    /// The entry \p state is about: its compile, else its frame's latest entry.
    QString entryOf(const SelectionState& state) const;
    void showEntry(const QString& compileId);
    /// What of \p s the panel shows for entry \p compileId, as a comparable summary.
    static QString contentsOf(const RunSnapshot& s, const QString& compileId);
    void showGuards(const RunSnapshot& s, const trace::CompileRow& c);
    void showRecompiles(const RunSnapshot& s, const trace::CompileRow& c);
    void fillDiffChoices(const RunSnapshot& s, const trace::CompileRow& c);
    void showDiff();
    void clear(const QString& why);
    void arrange(Arrangement wanted);
    /// Tab labels that say what each table holds, for the Tabbed arrangement.
    void updateTabLabels();
    /// A click on a table's line column shows that line of the workload.
    void followLine(const QModelIndex& index, int lineColumn);

    GuardsModel* m_guards = nullptr;
    RecompilesModel* m_recompiles = nullptr;
    GuardDiffModel* m_diff = nullptr;
    QLabel* m_title = nullptr;
    QGroupBox* m_guardsBox = nullptr;
    QGroupBox* m_recompilesBox = nullptr;
    QGroupBox* m_diffBox = nullptr;
    QTableView* m_guardsTable = nullptr;
    QLabel* m_recompileSummary = nullptr;
    QTableView* m_recompilesTable = nullptr;
    QComboBox* m_entryA = nullptr;
    QComboBox* m_entryB = nullptr;
    QLabel* m_diffSummary = nullptr;
    QTableView* m_diffTable = nullptr;
    QString m_compileId;
    QString m_shownContents;           ///< contentsOf() when the entry was last drawn
    QHash<int, QString> m_failedLater; ///< guard row → the later compiles it failed for
    QSet<int> m_notGuarded;            ///< guard rows the entry does not check (nn.Module reads)
    QStackedWidget* m_stack = nullptr; ///< the splitter or the tabs
    QSplitter* m_splitter = nullptr;
    QTabWidget* m_tabs = nullptr;
    Arrangement m_arrangement = Arrangement::Stacked;
    int m_pickedTab = 0; ///< the tab to show when the tables go back into tabs
};

} // namespace kiln::views
