// SPDX-License-Identifier: MIT
/// \file
/// Any table as CSV (RFC 4180: fields with commas, quotes or line breaks are quoted, quotes
/// doubled), as the user sees it: the view's column order and its sorted, filtered rows.
#pragma once

#include <QString>

class QAbstractItemModel;
class QTableView;
class QWidget;

namespace kiln::views {

/// Writes \p model's display text (header row first) to \p path; false with \p error set when
/// the file cannot be written.
bool writeCsv(const QAbstractItemModel& model, const QString& path, QString* error = nullptr);
/// The CSV text of \p model.
QString toCsv(const QAbstractItemModel& model);
/// Adds "Export as CSV…" and "Copy" to \p view's context menu.
void addTableExportMenu(QTableView* view);

} // namespace kiln::views
