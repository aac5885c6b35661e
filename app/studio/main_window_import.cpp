// SPDX-License-Identifier: MIT
// The main window's imports of PyTorch runs: File > Import PyTorch Trace…, files dropped on the
// window, the progress bar and Cancel in the status bar, and opening what was imported. The
// import runs on a pool thread (ImportJob); this file only starts it and shows its result.
#include "import_dialog.h"
#include "main_window.h"
#include "run_provenance.h"

#include <QFileInfo>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>

namespace kiln::studio {

void MainWindow::createImportStatus() {
    m_importBar = new QProgressBar(this);
    m_importBar->setObjectName(QStringLiteral("importProgress"));
    m_importBar->setRange(0, 1000);
    m_importBar->setMaximumWidth(320);
    m_importBar->setTextVisible(true);
    m_importCancel = new QToolButton(this);
    m_importCancel->setObjectName(QStringLiteral("importCancel"));
    m_importCancel->setText(tr("Cancel"));
    m_importCancel->setToolTip(tr("Stop the import: no trace is written"));
    statusBar()->addPermanentWidget(m_importBar);
    statusBar()->addPermanentWidget(m_importCancel);
    m_importBar->hide();
    m_importCancel->hide();
    connect(m_importCancel, &QToolButton::clicked, &m_import, &ImportJob::cancel);
    connect(&m_import, &ImportJob::progress, this, [this](qint64 done, qint64 total) {
        const int value = total > 0 ? int(done * 1000 / total) : 0;
        m_importBar->setValue(value);
        m_importBar->setFormat(tr("importing: %1 of %2 MB")
                                   .arg(double(done) / 1e6, 0, 'f', 1)
                                   .arg(double(total) / 1e6, 0, 'f', 1));
    });
    connect(&m_import, &ImportJob::finished, this, &MainWindow::onImportFinished);
}

void MainWindow::importWithDialog(const QString& source, const QString& profile) {
    ImportDialog dialog(this);
    dialog.setSources(source, profile);
    if (dialog.exec() != QDialog::Accepted) return;
    startImport(dialog.request());
}

bool MainWindow::startImport(const ImportRequest& request) {
    if (m_import.isRunning()) {
        showProblem(tr("An import is running: wait for it, or cancel it in the status bar"));
        return false;
    }
    if (request.logs.isEmpty() && request.profile.isEmpty()) {
        showProblem(tr("Nothing to import: choose a TORCH_TRACE log or a profiler trace"));
        return false;
    }
    m_problemBar->hide();
    m_importBar->setValue(0);
    m_importBar->setFormat(tr("importing…"));
    m_importBar->show();
    m_importCancel->show();
    const QString what = request.logs.isEmpty() ? request.profile : request.logs.front();
    statusBar()->showMessage(tr("importing %1").arg(QFileInfo(what).fileName()));
    m_import.start(request);
    return true;
}

bool MainWindow::importFiles(const QStringList& paths) {
    QString source, profile;
    for (const QString& path : paths) {
        QFileInfo info(path);
        if (info.suffix().compare(QStringLiteral("json"), Qt::CaseInsensitive) == 0) {
            if (profile.isEmpty()) profile = path;
        } else if ((info.isDir() || info.suffix() == QStringLiteral("log")) && source.isEmpty()) {
            source = path;
        }
    }
    if (source.isEmpty() && profile.isEmpty()) return false;
    auto snap = m_selection.snapshot();
    if (source.isEmpty() && snap && views::isImportedRun(snap->run)) {
        // A profile onto an imported run: its measured times go into that run.
        ImportRequest into;
        into.profile = profile;
        into.trace = m_tracePath;
        into.intoRun = snap->run.id;
        return startImport(into);
    }
    importWithDialog(source, profile);
    return true;
}

QString MainWindow::importProgressText() const {
    return m_import.isRunning() ? m_importBar->text() : QString();
}

void MainWindow::onImportFinished(const ImportResult& result) {
    m_importBar->hide();
    m_importCancel->hide();
    statusBar()->clearMessage();
    if (!result.trace.isEmpty()) {
        // Open (or re-read) the trace at the imported run: a run's snapshot is not re-read
        // once it ended, so a profile added to it needs the trace opened again.
        if (result.trace == m_tracePath && m_session.isOpen())
            openTrace(m_tracePath);
        else
            openFile(result.trace);
        if (result.runId) selectItem(QStringLiteral("run:%1").arg(result.runId));
        if (!result.summary.isEmpty()) statusBar()->showMessage(result.summary, 15000);
    }
    if (result.kind == ImportResult::Kind::Cancelled)
        statusBar()->showMessage(tr("Import cancelled: %1").arg(result.message), 15000);
    else if (result.kind == ImportResult::Kind::Failed)
        showProblem(tr("Import failed: %1").arg(result.message));
    Q_EMIT importFinished(result);
}

} // namespace kiln::studio
