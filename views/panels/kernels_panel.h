// SPDX-License-Identifier: MIT
/// \file
/// The Kernels panel: the run's kernels with their launch statistics (sortable, filterable by
/// text and kind, optionally only the selected graph's), and below the table the selected
/// kernel's generated code with its launch configuration and fused nodes, next to the
/// candidates max-autotune measured for it (AutotuneChoiceModel: median, timed runs, spread,
/// measured in this run or read from the tuning cache, chosen or stopped early). The timeline's
/// range selection narrows the statistics to the launches inside the range (setTimeRange).
#pragma once

#include "cuda_highlighter.h"
#include "panel.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTableView;
class QToolButton;

namespace kiln::views {

class AutotuneChoiceModel;
class KernelTableModel;
class KernelFilterModel;

class KernelsPanel final : public Panel {
    Q_OBJECT

public:
    KernelsPanel(TraceSession& session, Selection& selection, QWidget* parent = nullptr);

    /// Statistics from the launches that start in [startNs, endNs) only; (0, 0) clears.
    void setTimeRange(qint64 startNs, qint64 endNs);
    void setFilterText(const QString& text);
    /// Only kernels of \p kind ("pointwise", "template", ...); empty for all.
    void setKindFilter(const QString& kind);
    void setOnlySelectedGraph(bool only);

    QTableView* table() const { return m_table; }
    KernelTableModel* model() const { return m_model; }
    KernelFilterModel* filterModel() const { return m_filter; }
    /// What the lower half shows for the selected kernel (tests and screenshots read these).
    QString codeText() const;
    QString codeHeaderText() const;
    QTableView* candidates() const { return m_candidates; }
    AutotuneChoiceModel* candidatesModel() const { return m_choices; }
    /// The caption, then one "candidate | median | runs | spread | measured | outcome" line per
    /// candidate.
    QString candidatesText() const;
    /// The range banner's text; empty without a range.
    QString bannerText() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showSnapshot(const SnapshotPtr& snapshot) override;
    void showSelection(const SelectionState& state) override;

private:
    QWidget* makeFilterBar();
    QWidget* makeBanner();
    QWidget* makeDetails();
    void refillKinds();
    void onRowActivated(const QModelIndex& proxyIndex);
    void selectRowOf(qint64 kernelId, bool scroll = true);
    void showKernel(qint64 kernelId, bool refresh = false);
    void showCandidates(const KernelRecord* kernel);
    void fitCandidateColumn();
    void updateBanner();

    KernelTableModel* m_model = nullptr;
    KernelFilterModel* m_filter = nullptr;
    QTableView* m_table = nullptr;
    QLineEdit* m_filterEdit = nullptr;
    QComboBox* m_kindCombo = nullptr;
    QCheckBox* m_onlyGraph = nullptr;
    QWidget* m_banner = nullptr;
    QLabel* m_bannerLabel = nullptr;
    QLabel* m_codeHeader = nullptr;
    CudaHighlighter* m_cudaHighlighter = nullptr; ///< on while the code shown is CUDA C++
    QPlainTextEdit* m_code = nullptr;
    QLabel* m_candidatesLabel = nullptr;
    AutotuneChoiceModel* m_choices = nullptr;
    QTableView* m_candidates = nullptr;
    qint64 m_shownKernel = -1;
    bool m_followingSelection = false; ///< selecting a row because the selection changed
};

} // namespace kiln::views
