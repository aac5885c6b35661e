// SPDX-License-Identifier: MIT
/// \file
/// File > Import PyTorch Trace…: a TORCH_TRACE log (a .log file or a TORCH_TRACE directory),
/// optionally a torch.profiler Chrome trace (.json), and where to save the trace (beside the log
/// by default, or a temporary file). The import itself is an ImportJob.
#pragma once

#include "import_job.h"

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace kiln::studio {

class ImportDialog final : public QDialog {
    Q_OBJECT

public:
    explicit ImportDialog(QWidget* parent = nullptr);

    /// Fills the fields: \p source a .log or directory (may be empty), \p profile a .json.
    void setSources(const QString& source, const QString& profile);
    /// The import the fields describe; check problem() first.
    ImportRequest request() const;
    /// Why the fields cannot be imported yet ("" when they can).
    QString problem() const;

    QLineEdit* logEdit() const { return m_log; }
    QLineEdit* profileEdit() const { return m_profile; }
    QLineEdit* traceEdit() const { return m_trace; }
    QCheckBox* temporaryBox() const { return m_temporary; }

private:
    void update();
    void browseLog(bool directory);

    QLineEdit* m_log = nullptr;
    QLineEdit* m_profile = nullptr;
    QLineEdit* m_trace = nullptr;
    QCheckBox* m_temporary = nullptr;
    QLabel* m_problem = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    bool m_traceEdited = false; ///< the user chose the destination: keep it
    QString m_temporaryPath;
};

} // namespace kiln::studio
