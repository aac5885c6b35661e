// SPDX-License-Identifier: MIT
#include "trace_window.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>

namespace kiln::studio {

TraceWindow::TraceWindow(const QString& tracePath, QWidget* parent)
    : QMainWindow(parent) {
    views::registerTraceTypes();
    setWindowTitle("Kiln Studio — " + QFileInfo(tracePath).fileName());
    m_loader = new views::TraceLoader(tracePath);
    m_loader->moveToThread(&m_worker);
    connect(&m_worker, &QThread::finished, m_loader, &QObject::deleteLater);
    connect(m_loader, &views::TraceLoader::runsLoaded, this, &TraceWindow::onRuns);
    connect(m_loader, &views::TraceLoader::failed, this, [this](const QString& m) {
        statusBar()->showMessage(m);
        Q_EMIT failed(m);
    });
    connect(m_loader, &views::TraceLoader::kernelsLoaded, this,
            [this](qint64, views::KernelRecords r) {
                m_kernels.setKernels(std::move(r));
                tableArrived();
            });
    auto adopt = [this](auto& model) {
        return [this, &model](qint64, auto rows) {
            model.setRows(std::move(rows));
            tableArrived();
        };
    };
    connect(m_loader, &views::TraceLoader::compilesLoaded, this, adopt(m_compiles));
    connect(m_loader, &views::TraceLoader::graphBreaksLoaded, this, adopt(m_breaks));
    connect(m_loader, &views::TraceLoader::guardsLoaded, this, adopt(m_guards));
    connect(m_loader, &views::TraceLoader::recompilesLoaded, this, adopt(m_recompiles));
    connect(m_loader, &views::TraceLoader::configLoaded, this, adopt(m_config));
    connect(m_loader, &views::TraceLoader::outputLoaded, this, adopt(m_output));
    m_worker.start();

    addTable("Kernels", &m_kernels, Qt::TopDockWidgetArea);
    addTable("Compiles", &m_compiles, Qt::LeftDockWidgetArea);
    addTable("Graph breaks", &m_breaks, Qt::LeftDockWidgetArea);
    addTable("Guards", &m_guards, Qt::RightDockWidgetArea);
    addTable("Recompiles", &m_recompiles, Qt::RightDockWidgetArea);
    addTable("Config", &m_config, Qt::BottomDockWidgetArea);
    addTable("Output", &m_output, Qt::BottomDockWidgetArea);
    statusBar()->showMessage("reading " + tracePath);
}

TraceWindow::~TraceWindow() {
    m_worker.quit();
    m_worker.wait();
}

void TraceWindow::addTable(const QString& title, QAbstractItemModel* model,
                           Qt::DockWidgetArea area) {
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model);
    auto* view = new QTableView;
    view->setModel(proxy);
    view->setSortingEnabled(true);
    proxy->sort(-1); // the trace's order until the user sorts by a column
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
    // Fit the columns to each new snapshot (the last column takes what is left).
    connect(model, &QAbstractItemModel::modelReset, view,
            [view] { view->resizeColumnsToContents(); });
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(title);
    dock->setWidget(view);
    addDockWidget(area, dock);
}

void TraceWindow::load() {
    QMetaObject::invokeMethod(m_loader, "loadRuns", Qt::QueuedConnection);
}

void TraceWindow::onRuns(views::RunRows rows) {
    m_runs.setRows(rows);
    if (!rows || rows->empty()) {
        statusBar()->showMessage("the trace has no runs");
        Q_EMIT loaded();
        return;
    }
    const trace::RunRow& run = rows->back();
    statusBar()->showMessage(QString("run %1: %2 (%3)")
                                 .arg(run.id)
                                 .arg(QString::fromStdString(run.workloadPath))
                                 .arg(trace::runStatusName(run.status)));
    m_pending = 7;
    for (const char* slot : {"loadKernels", "loadCompiles", "loadGraphBreaks", "loadGuards",
                             "loadRecompiles", "loadConfig", "loadOutput"})
        QMetaObject::invokeMethod(m_loader, slot, Qt::QueuedConnection, Q_ARG(qint64, run.id));
}

void TraceWindow::tableArrived() {
    if (--m_pending == 0) Q_EMIT loaded();
}

} // namespace kiln::studio
