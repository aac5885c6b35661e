// SPDX-License-Identifier: MIT
/// \file
/// The difference between the guards of two cache entries, the question a recompile raises:
/// what does entry B check that entry A did not, and which expected values moved (a tensor's
/// size became dynamic, a constant changed)? Guards are matched by kind and source; a source
/// with several guards of one kind (shape-env checks on L['x']) is matched by its expression
/// first, so only guards that really differ show up.
#pragma once

#include "trace/trace_types.h"

#include <QAbstractTableModel>
#include <vector>

namespace kiln::views {

struct GuardChange {
    enum class Kind { OnlyInA, OnlyInB, Changed };
    Kind change = Kind::Changed;
    std::string kind;   ///< the guard kind (TENSOR_MATCH, EQUALS_MATCH, ...)
    std::string source; ///< L['x'], G['torch'], ...; empty for global-state guards
    std::string expressionA, expressionB; ///< empty on the side that lacks the guard
    std::string expectedA, expectedB;
    int32_t userLine = 0;

    bool operator==(const GuardChange&) const = default;
};

struct GuardDiff {
    std::vector<GuardChange> changes; ///< A's order first, then what only B has
    int unchanged = 0;                ///< guards both entries check with the same expectation

    int count(GuardChange::Kind kind) const;
};

/// The guards of entry A against those of entry B.
GuardDiff diffGuards(const std::vector<const trace::GuardRow*>& a,
                     const std::vector<const trace::GuardRow*>& b);

/// "+" (only in B), "−" (only in A) or "~" (changed expected value).
QString guardChangeMarker(GuardChange::Kind change);

/// A guard diff as a table: marker, kind, source, A's expected, B's expected, B's (or A's)
/// check as PyTorch prints it, user line. Rows are coloured by change.
class GuardDiffModel final : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        MarkerColumn,
        KindColumn,
        SourceColumn,
        ExpectedAColumn,
        ExpectedBColumn,
        CheckColumn,
        LineColumn,
        ColumnCount
    };

    explicit GuardDiffModel(QObject* parent = nullptr);

    /// Shows \p diff between entries named \p nameA and \p nameB (the expected columns' headers).
    void setDiff(GuardDiff diff, const QString& nameA, const QString& nameB);
    const GuardDiff& diff() const { return m_diff; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant display(const GuardChange& change, int column) const;

    GuardDiff m_diff;
    QString m_nameA, m_nameB;
};

} // namespace kiln::views
