// SPDX-License-Identifier: MIT
#include "run_toolbar.h"

#include "api/call_timer.h"
#include "api/catalog.h"
#include "counted.h"
#include "option_editor.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QProgressBar>
#include <QSpinBox>
#include <QToolButton>

namespace kiln::studio {

namespace {

QComboBox* combo(QWidget* parent, const QString& toolTip) {
    auto* box = new QComboBox(parent);
    box->setToolTip(toolTip);
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    return box;
}

} // namespace

RunToolBar::RunToolBar(QWidget* parent)
    : QToolBar(tr("Run"), parent) {
    setObjectName(QStringLiteral("runToolBar"));
    m_mode =
        combo(this, tr("torch.compile mode for every compile of the script (kiln run --mode)"));
    m_mode->addItem(tr("script's mode"), QString());
    for (const std::string& mode : api::compileModes())
        m_mode->addItem(QString::fromStdString(mode), QString::fromStdString(mode));
    m_backend = combo(this, tr("Backend for every compile of the script (kiln run --backend)"));
    m_backend->addItem(tr("script's backend"), QString());
    for (const std::string& backend : api::builtinBackends())
        m_backend->addItem(QString::fromStdString(backend), QString::fromStdString(backend));
    m_device = combo(this, tr("Device the script's tensors default to (kiln run --device)"));
    m_device->addItem(QStringLiteral("cpu"), QStringLiteral("cpu"));
    m_device->addItem(QStringLiteral("cuda"), QStringLiteral("cuda"));
    m_editor = new OptionEditor(this);
    m_options = new QToolButton(this);
    m_options->setText(tr("Options…"));
    connect(m_options, &QToolButton::clicked, this, &RunToolBar::editOptions);
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] { m_editor->setMode(mode()); });
    m_measure = new QSpinBox(this);
    m_measure->setObjectName(QStringLiteral("measureCalls"));
    m_measure->setRange(0, api::kMaxMeasuredCalls);
    m_measure->setSpecialValueText(tr("off"));
    m_measure->setSuffix(tr(" calls"));
    m_measure->setToolTip(
        tr("After the script, call each torch.compile'd function again with its last "
           "arguments: the warm-up calls, then this many timed calls, every launch recorded "
           "(kiln run --measure). Off: Run does not measure, Compare modes times %1 calls.")
            .arg(kCompareMeasuredCalls));
    m_warmup = new QSpinBox(this);
    m_warmup->setObjectName(QStringLiteral("warmupCalls"));
    m_warmup->setRange(0, 1000);
    m_warmup->setValue(3);
    m_warmup->setPrefix(tr("warm-up "));
    m_warmup->setToolTip(tr("Untimed calls before the timed ones (kiln run --warmup)"));

    m_run = new QAction(tr("Run"), this);
    m_run->setShortcut(Qt::Key_F5);
    m_run->setToolTip(tr("Run the workload with these settings (F5)"));
    m_stop = new QAction(tr("Stop"), this);
    m_stop->setShortcut(Qt::SHIFT | Qt::Key_F5);
    m_stop->setToolTip(tr("Stop the running workload (Shift+F5)"));
    m_compareModes = new QAction(tr("Compare modes"), this);
    m_compareModes->setShortcut(Qt::CTRL | Qt::Key_F5);
    m_compareModes->setToolTip(tr("Run default and max-autotune in turn, %1 times each, "
                                  "measuring the compiled calls, and compare them (Ctrl+F5)")
                                   .arg(kCompareRounds));
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 0);
    m_progress->setMaximumWidth(120);
    m_progressText = new QLabel(this);

    addWidget(new QLabel(tr(" Mode "), this));
    addWidget(m_mode);
    addWidget(new QLabel(tr(" Backend "), this));
    addWidget(m_backend);
    addWidget(new QLabel(tr(" Device "), this));
    addWidget(m_device);
    addWidget(m_options);
    addWidget(new QLabel(tr(" Measure "), this));
    addWidget(m_measure);
    addWidget(m_warmup);
    addSeparator();
    addAction(m_run);
    addAction(m_stop);
    addAction(m_compareModes);
    addSeparator();
    // A toolbar shows or hides its widgets through the actions addWidget returns.
    m_progressActions = {addWidget(m_progress), addWidget(m_progressText)};
    m_importedText = new QLabel(this);
    m_importedText->setObjectName(QStringLiteral("importedRun"));
    m_importedText->setStyleSheet(QStringLiteral("color: #6a4c00; padding: 0 6px;"));
    // First, where it is seen: the run settings after it are disabled.
    m_importedAction = insertWidget(actions().front(), m_importedText);
    m_importedAction->setVisible(false);
    setRunning(false);
}

void RunToolBar::setImported(const QString& origin) {
    m_imported = !origin.isEmpty();
    m_importedAction->setVisible(m_imported);
    m_importedText->setText(
        m_imported ? tr("Imported PyTorch run · %1 · not re-runnable").arg(origin) : QString());
    m_importedText->setToolTip(
        m_imported ? tr("This run was imported from PyTorch's logs (kiln import): PyTorch ran it, "
                        "not Kiln. Run, Compare modes, mode, backend, device and options need a "
                        "workload Kiln runs (File > Open Workload).")
                   : QString());
    for (QWidget* w : std::initializer_list<QWidget*>{m_mode, m_backend, m_device, m_options,
                                                      m_measure, m_warmup})
        w->setEnabled(!m_imported);
    m_run->setEnabled(!m_running && !m_imported);
    m_compareModes->setEnabled(!m_running && !m_imported);
}

QString RunToolBar::importedText() const {
    return m_imported ? m_importedText->text() : QString();
}

RunRequest RunToolBar::request(const QString& script, const QString& trace) const {
    RunRequest r;
    r.script = script;
    r.trace = trace;
    r.mode = mode();
    r.backend = backend();
    r.device = device();
    r.options = overrides();
    r.measureCalls = m_measure->value();
    r.warmupCalls = m_warmup->value();
    return r;
}

void RunToolBar::setMeasure(int calls, int warmup) {
    m_measure->setValue(calls);
    m_warmup->setValue(warmup);
}

void RunToolBar::setMode(const QString& mode) {
    int index = m_mode->findData(mode);
    if (index >= 0) m_mode->setCurrentIndex(index);
}

QString RunToolBar::mode() const {
    return m_mode->currentData().toString();
}

QString RunToolBar::backend() const {
    return m_backend->currentData().toString();
}

QString RunToolBar::device() const {
    return m_device->currentData().toString();
}

QList<QPair<QString, QString>> RunToolBar::overrides() const {
    return m_editor->overrides();
}

void RunToolBar::setOverrides(const QList<QPair<QString, QString>>& overrides) {
    m_editor->setOverrides(overrides);
    updateOptionsButton();
}

void RunToolBar::editOptions() {
    auto before = m_editor->overrides();
    if (m_editor->exec() != QDialog::Accepted) m_editor->setOverrides(before);
    updateOptionsButton();
}

void RunToolBar::updateOptionsButton() {
    const qsizetype changed = m_editor->overrides().size();
    m_options->setText(changed ? tr("Options (%1 changed)…").arg(changed) : tr("Options…"));
    QStringList lines;
    for (const auto& [key, value] : m_editor->overrides())
        lines << key + " = " + value;
    m_options->setToolTip(lines.isEmpty() ? tr("Every inductor option, with its default")
                                          : lines.join('\n'));
}

void RunToolBar::setRunning(bool running) {
    m_running = running;
    m_run->setEnabled(!running && !m_imported);
    m_compareModes->setEnabled(!running && !m_imported);
    m_stop->setEnabled(running);
    for (QAction* action : std::as_const(m_progressActions))
        action->setVisible(running);
    if (running) m_progressText->setText(tr("starting…"));
}

QString RunToolBar::progressText() const {
    return m_stop->isEnabled() ? m_progressText->text() : QString();
}

void RunToolBar::showProgress(const views::RunSnapshot& snapshot) {
    // The newest unfinished compile says what the run waits for; an autotune event inside it
    // names the kernel being tuned.
    const trace::CompileRow* compiling = nullptr;
    for (const trace::CompileRow& c : snapshot.compiles)
        if (!c.finished()) compiling = &c;
    QString text;
    if (compiling) {
        text = tr("compiling %1").arg(QString::fromStdString(compiling->compileId));
        for (auto it = snapshot.events.rbegin(); it != snapshot.events.rend(); ++it) {
            if (it->startNs < compiling->startNs) break;
            if (it->category == "autotune") {
                text = tr("autotuning %1 (%2)")
                           .arg(QString::fromStdString(it->name),
                                QString::fromStdString(compiling->compileId));
                break;
            }
        }
    } else {
        text = tr("running: %1, %2")
                   .arg(views::counted(qsizetype(snapshot.compiles.size()), "compile"),
                        views::counted(qsizetype(snapshot.launches.size()), "kernel launch"));
    }
    m_progressText->setText(text);
}

} // namespace kiln::studio
