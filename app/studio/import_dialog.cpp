// SPDX-License-Identifier: MIT
#include "import_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace kiln::studio {

namespace {

QWidget* row(QWidget* parent, QLineEdit* edit, const QList<QPushButton*>& buttons) {
    auto* box = new QWidget(parent);
    auto* layout = new QHBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    for (QPushButton* b : buttons)
        layout->addWidget(b);
    return box;
}

} // namespace

ImportDialog::ImportDialog(QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Import PyTorch Trace"));
    m_log = new QLineEdit(this);
    m_log->setPlaceholderText(tr("a TORCH_TRACE directory or a .log file"));
    m_profile = new QLineEdit(this);
    m_profile->setPlaceholderText(tr("optional: torch.profiler's export_chrome_trace (.json)"));
    m_trace = new QLineEdit(this);
    m_temporary = new QCheckBox(tr("Temporary trace (not kept)"), this);
    m_problem = new QLabel(this);
    m_problem->setStyleSheet(QStringLiteral("color: #8a1c1c;"));
    m_problem->setWordWrap(true);

    auto* logFile = new QPushButton(tr("File…"), this);
    auto* logDir = new QPushButton(tr("Directory…"), this);
    auto* profile = new QPushButton(tr("File…"), this);
    auto* trace = new QPushButton(tr("Save as…"), this);
    connect(logFile, &QPushButton::clicked, this, [this] { browseLog(false); });
    connect(logDir, &QPushButton::clicked, this, [this] { browseLog(true); });
    connect(profile, &QPushButton::clicked, this, [this] {
        QString path = QFileDialog::getOpenFileName(this, tr("Profiler trace"), m_log->text(),
                                                    tr("Chrome traces (*.json)"));
        if (!path.isEmpty()) m_profile->setText(path);
    });
    connect(trace, &QPushButton::clicked, this, [this] {
        QString path = QFileDialog::getSaveFileName(this, tr("Save the trace as"), m_trace->text(),
                                                    tr("Kiln traces (*.kiln)"));
        if (path.isEmpty()) return;
        if (!path.endsWith(QStringLiteral(".kiln"))) path += QStringLiteral(".kiln");
        m_traceEdited = true;
        m_temporary->setChecked(false);
        m_trace->setText(path);
    });
    connect(m_trace, &QLineEdit::textEdited, this, [this] { m_traceEdited = true; });
    connect(m_log, &QLineEdit::textChanged, this, &ImportDialog::update);
    connect(m_profile, &QLineEdit::textChanged, this, &ImportDialog::update);
    connect(m_trace, &QLineEdit::textChanged, this, &ImportDialog::update);
    connect(m_temporary, &QCheckBox::toggled, this, &ImportDialog::update);

    auto* form = new QFormLayout(this);
    form->addRow(tr("PyTorch log:"), row(this, m_log, {logFile, logDir}));
    form->addRow(tr("Profiler trace:"), row(this, m_profile, {profile}));
    form->addRow(tr("Save to:"), row(this, m_trace, {trace}));
    form->addRow(QString(), m_temporary);
    form->addRow(m_problem);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(m_buttons);
    resize(640, sizeHint().height());
    update();
}

void ImportDialog::browseLog(bool directory) {
    QString path = directory ? QFileDialog::getExistingDirectory(this, tr("TORCH_TRACE directory"))
                             : QFileDialog::getOpenFileName(this, tr("PyTorch structured log"), {},
                                                            tr("TORCH_TRACE logs (*.log)"));
    if (!path.isEmpty()) m_log->setText(path);
}

void ImportDialog::setSources(const QString& source, const QString& profile) {
    m_log->setText(source);
    m_profile->setText(profile);
}

void ImportDialog::update() {
    // The destination follows the source until the user picks one.
    const QString source = m_log->text().isEmpty() ? m_profile->text() : m_log->text();
    m_trace->setEnabled(!m_temporary->isChecked());
    if (m_temporary->isChecked()) {
        if (m_temporaryPath.isEmpty() && !source.isEmpty())
            m_temporaryPath = ImportJob::temporaryTraceFor(source);
        QSignalBlocker block(m_trace);
        m_trace->setText(m_temporaryPath);
    } else if (!m_traceEdited && !source.isEmpty()) {
        QSignalBlocker block(m_trace);
        m_trace->setText(ImportJob::defaultTraceFor(source));
    }
    const QString why = problem();
    m_problem->setText(why);
    m_problem->setVisible(!why.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}

QString ImportDialog::problem() const {
    const QString log = m_log->text(), profile = m_profile->text();
    if (log.isEmpty() && profile.isEmpty()) return tr("Choose a log or a profiler trace.");
    if (!log.isEmpty() && ImportJob::logsOf(log).isEmpty())
        return QFileInfo(log).isDir() ? tr("%1 has no .log files (TORCH_TRACE writes "
                                           "dedicated_log_torch_trace_*.log)")
                                            .arg(log)
                                      : tr("%1 does not exist").arg(log);
    if (!profile.isEmpty() && !QFileInfo(profile).isFile())
        return tr("%1 does not exist").arg(profile);
    if (m_trace->text().isEmpty()) return tr("Choose where to save the trace.");
    return {};
}

ImportRequest ImportDialog::request() const {
    ImportRequest r;
    if (!m_log->text().isEmpty()) r.logs = ImportJob::logsOf(m_log->text());
    r.profile = m_profile->text();
    r.trace = m_trace->text();
    return r;
}

} // namespace kiln::studio
