// SPDX-License-Identifier: MIT
#include "table_export.h"

#include <QAbstractItemModel>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QFileDialog>
#include <QMessageBox>
#include <QTableView>

namespace kiln::views {

namespace {

QString csvField(QString text) {
    if (!text.contains(',') && !text.contains('"') && !text.contains('\n') && !text.contains('\r'))
        return text;
    text.replace("\"", "\"\"");
    return '"' + text + '"';
}

} // namespace

QString toCsv(const QAbstractItemModel& model) {
    QString out;
    const int columns = model.columnCount();
    for (int c = 0; c < columns; ++c)
        out += (c ? "," : "") + csvField(model.headerData(c, Qt::Horizontal).toString());
    out += "\r\n";
    for (int r = 0; r < model.rowCount(); ++r) {
        for (int c = 0; c < columns; ++c)
            out += (c ? "," : "") + csvField(model.data(model.index(r, c)).toString());
        out += "\r\n";
    }
    return out;
}

bool writeCsv(const QAbstractItemModel& model, const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        if (error) *error = file.errorString();
        return false;
    }
    file.write(toCsv(model).toUtf8());
    if (!file.flush()) {
        if (error) *error = file.errorString();
        return false;
    }
    return true;
}

void addTableExportMenu(QTableView* view) {
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* exportCsv = new QAction(QObject::tr("Export as CSV…"), view);
    QObject::connect(exportCsv, &QAction::triggered, view, [view] {
        QString path = QFileDialog::getSaveFileName(view, QObject::tr("Export table"), {},
                                                    QObject::tr("CSV files (*.csv)"));
        if (path.isEmpty() || !view->model()) return;
        QString error;
        if (!writeCsv(*view->model(), path, &error))
            QMessageBox::warning(view, QObject::tr("Export table"),
                                 QObject::tr("Cannot write %1: %2").arg(path, error));
    });
    auto* copy = new QAction(QObject::tr("Copy table"), view);
    QObject::connect(copy, &QAction::triggered, view, [view] {
        if (view->model()) QApplication::clipboard()->setText(toCsv(*view->model()));
    });
    view->addAction(exportCsv);
    view->addAction(copy);
}

} // namespace kiln::views
