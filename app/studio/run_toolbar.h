// SPDX-License-Identifier: MIT
/// \file
/// The run toolbar: mode, backend, device, the option editor, Run (F5) / Stop, and a progress
/// indicator that says what a live run is doing (compiling f/c, autotuning a kernel).
#pragma once

#include "run_controller.h"
#include "run_snapshot.h"

#include <QToolBar>

class QAction;
class QComboBox;
class QLabel;
class QProgressBar;
class QSpinBox;
class QToolButton;

namespace kiln::studio {

/// Timed calls per compiled function in Compare modes' runs when the toolbar's Measure is off.
inline constexpr int kCompareMeasuredCalls = 20;
/// Compare modes records each mode this many times, in turn (A, B, A, B, A, B).
inline constexpr int kCompareRounds = 3;

class OptionEditor;

class RunToolBar final : public QToolBar {
    Q_OBJECT

public:
    explicit RunToolBar(QWidget* parent = nullptr);

    QAction* runAction() const { return m_run; }
    QAction* stopAction() const { return m_stop; }
    QAction* compareModesAction() const { return m_compareModes; }

    /// The request for `script` into `trace` with the toolbar's choices.
    RunRequest request(const QString& script, const QString& trace) const;
    void setMode(const QString& mode);
    QString mode() const;
    QString backend() const;
    QString device() const;
    QList<QPair<QString, QString>> overrides() const;
    /// Timed calls of each compiled function after the script (0: none), and warm-up calls.
    void setMeasure(int calls, int warmup);
    void setOverrides(const QList<QPair<QString, QString>>& overrides);

    /// Running or idle: enables Run/Stop and shows or hides the progress indicator.
    void setRunning(bool running);
    /// What the live run is doing now, from its newest snapshot.
    void showProgress(const views::RunSnapshot& snapshot);
    /// The progress text shown now (empty when idle).
    QString progressText() const;
    /// The shown run was imported from PyTorch's logs (\p origin: where from, "PyTorch 2.11 ·
    /// rank 0"), or not (empty): an imported run says so, and Run, Compare modes and the run
    /// settings are disabled, since Kiln's interpreter did not run it and cannot run a log.
    void setImported(const QString& origin);
    bool isImported() const { return m_imported; }
    /// The text shown for an imported run (empty otherwise).
    QString importedText() const;

private:
    void editOptions();
    void updateOptionsButton();

    QComboBox* m_mode = nullptr;
    QComboBox* m_backend = nullptr;
    QComboBox* m_device = nullptr;
    QToolButton* m_options = nullptr;
    QSpinBox* m_measure = nullptr;
    QSpinBox* m_warmup = nullptr;
    OptionEditor* m_editor = nullptr;
    QAction* m_run = nullptr;
    QAction* m_stop = nullptr;
    QAction* m_compareModes = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_progressText = nullptr;
    QList<QAction*> m_progressActions;
    QLabel* m_importedText = nullptr;
    QAction* m_importedAction = nullptr;
    bool m_imported = false;
    bool m_running = false;
};

} // namespace kiln::studio
