// SPDX-License-Identifier: MIT
/// \file
/// Guard matching for GuardDiff and its table model.
#include "guard_diff.h"

#include <QColor>
#include <algorithm>

namespace kiln::views {

namespace {

using Guards = std::vector<const trace::GuardRow*>;

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

/// Index of the first unmatched guard of \p in that \p same accepts; -1 when none.
template <typename Same>
int findUnmatched(const Guards& in, const std::vector<bool>& matched, Same same) {
    for (size_t i = 0; i < in.size(); ++i)
        if (!matched[i] && same(*in[i])) return static_cast<int>(i);
    return -1;
}

GuardChange changeOf(GuardChange::Kind kind, const trace::GuardRow* a, const trace::GuardRow* b) {
    const trace::GuardRow& any = b ? *b : *a;
    GuardChange c;
    c.change = kind;
    c.kind = any.kind;
    c.source = any.source;
    c.userLine = any.userLine;
    if (a) {
        c.expressionA = a->expression;
        c.expectedA = a->expected;
    }
    if (b) {
        c.expressionB = b->expression;
        c.expectedB = b->expected;
    }
    return c;
}

} // namespace

int GuardDiff::count(GuardChange::Kind kind) const {
    return static_cast<int>(
        std::count_if(changes.begin(), changes.end(), [&](auto& c) { return c.change == kind; }));
}

GuardDiff diffGuards(const Guards& a, const Guards& b) {
    GuardDiff diff;
    std::vector<bool> matchedB(b.size(), false);
    std::vector<int> partner(a.size(), -1);
    // Identical checks first, so that a kind+source pair only matches what is left over.
    for (size_t i = 0; i < a.size(); ++i) {
        partner[i] = findUnmatched(b, matchedB, [&](const trace::GuardRow& g) {
            return g.kind == a[i]->kind && g.source == a[i]->source &&
                   g.expression == a[i]->expression;
        });
        if (partner[i] >= 0) matchedB[static_cast<size_t>(partner[i])] = true;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        if (partner[i] >= 0 || a[i]->source.empty()) continue;
        partner[i] = findUnmatched(b, matchedB, [&](const trace::GuardRow& g) {
            return g.kind == a[i]->kind && g.source == a[i]->source;
        });
        if (partner[i] >= 0) matchedB[static_cast<size_t>(partner[i])] = true;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        if (partner[i] < 0) {
            diff.changes.push_back(changeOf(GuardChange::Kind::OnlyInA, a[i], nullptr));
            continue;
        }
        const trace::GuardRow* other = b[static_cast<size_t>(partner[i])];
        if (other->expected == a[i]->expected && other->expression == a[i]->expression)
            ++diff.unchanged;
        else
            diff.changes.push_back(changeOf(GuardChange::Kind::Changed, a[i], other));
    }
    for (size_t j = 0; j < b.size(); ++j)
        if (!matchedB[j])
            diff.changes.push_back(changeOf(GuardChange::Kind::OnlyInB, nullptr, b[j]));
    return diff;
}

QString guardChangeMarker(GuardChange::Kind change) {
    switch (change) {
    case GuardChange::Kind::OnlyInA:
        return QStringLiteral("\u2212");
    case GuardChange::Kind::OnlyInB:
        return QStringLiteral("+");
    case GuardChange::Kind::Changed:
        return QStringLiteral("~");
    }
    return {};
}

GuardDiffModel::GuardDiffModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void GuardDiffModel::setDiff(GuardDiff diff, const QString& nameA, const QString& nameB) {
    beginResetModel();
    m_diff = std::move(diff);
    m_nameA = nameA;
    m_nameB = nameB;
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, ExpectedAColumn, ExpectedBColumn);
}

int GuardDiffModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_diff.changes.size());
}

int GuardDiffModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GuardDiffModel::display(const GuardChange& c, int column) const {
    switch (column) {
    case MarkerColumn:
        return guardChangeMarker(c.change);
    case KindColumn:
        return text(c.kind);
    case SourceColumn:
        return text(c.source);
    case ExpectedAColumn:
        return text(c.expectedA);
    case ExpectedBColumn:
        return text(c.expectedB);
    case CheckColumn:
        return text(c.expressionB.empty() ? c.expressionA : c.expressionB);
    case LineColumn:
        return c.userLine > 0 ? QVariant(c.userLine) : QVariant();
    }
    return {};
}

QVariant GuardDiffModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const GuardChange& c = m_diff.changes[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(c, index.column());
    case Qt::ToolTipRole:
        if (c.change != GuardChange::Kind::Changed) return text(c.expressionA + c.expressionB);
        return QString("%1: %2\n%3: %4")
            .arg(m_nameA, text(c.expressionA), m_nameB, text(c.expressionB));
    // Light tints with dark text, so the rows read the same under a dark palette.
    case Qt::BackgroundRole:
        switch (c.change) {
        case GuardChange::Kind::OnlyInA:
            return QColor(0xfd, 0xe7, 0xe9);
        case GuardChange::Kind::OnlyInB:
            return QColor(0xe6, 0xf4, 0xea);
        case GuardChange::Kind::Changed:
            return QColor(0xff, 0xf4, 0xd6);
        }
        return {};
    case Qt::ForegroundRole:
        if (index.column() != MarkerColumn) return QColor(0x20, 0x20, 0x20);
        switch (c.change) {
        case GuardChange::Kind::OnlyInA:
            return QColor(0xc6, 0x28, 0x28);
        case GuardChange::Kind::OnlyInB:
            return QColor(0x2e, 0x7d, 0x32);
        case GuardChange::Kind::Changed:
            return QColor(0xa1, 0x5c, 0x00);
        }
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == MarkerColumn ? QVariant(int(Qt::AlignCenter)) : QVariant();
    }
    return {};
}

QVariant GuardDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case MarkerColumn:
        return QString();
    case KindColumn:
        return QStringLiteral("kind");
    case SourceColumn:
        return QStringLiteral("source");
    case ExpectedAColumn:
        return m_nameA.isEmpty() ? QStringLiteral("A expects") : m_nameA + " expects";
    case ExpectedBColumn:
        return m_nameB.isEmpty() ? QStringLiteral("B expects") : m_nameB + " expects";
    case CheckColumn:
        return QStringLiteral("guard");
    case LineColumn:
        return QStringLiteral("line");
    }
    return {};
}

} // namespace kiln::views
