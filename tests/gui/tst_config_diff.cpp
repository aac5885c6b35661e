// SPDX-License-Identifier: MIT
/// \file
/// The config diff on a real trace of one workload run in default mode (run 1) and in
/// max-autotune (run 2): the options max-autotune changes are listed with their values and
/// where they came from, options at their default in every run are hidden until "show all",
/// and the panel shows every run of the trace, follows showRuns and filters by name.
#include "config_diff_model.h"
#include "config_panel.h"
#include "studio_fixture.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QColor>
#include <QLineEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <set>

using namespace kiln;
using views::ConfigDiffModel;

namespace {

QString cell(const QAbstractItemModel& model, int row, int column, int role = Qt::DisplayRole) {
    return model.index(row, column).data(role).toString();
}

/// An option both runs left at its default (with the same value).
std::string untouchedOption(const views::RunSnapshot& a, const views::RunSnapshot& b) {
    for (const trace::ConfigRow& x : a.config) {
        if (x.source != "default" || x.value != x.defaultValue) continue;
        for (const trace::ConfigRow& y : b.config)
            if (y.key == x.key && y.value == x.value) return x.key;
    }
    return {};
}

} // namespace

class ConfigDiffTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_trace;
    views::SnapshotPtr m_a;
    views::SnapshotPtr m_b;

private slots:
    void initTestCase() {
        m_trace = testing::compareModesTrace(m_dir.path());
        QVERIFY(!m_trace.isEmpty());
        m_a = testing::readSnapshot(m_trace, 1);
        m_b = testing::readSnapshot(m_trace, 2);
        QVERIFY(m_a && m_b);
        QVERIFY(!m_a->config.empty());
    }

    void maxAutotuneIsSetByTheMode() {
        ConfigDiffModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns({m_a, m_b});
        QCOMPARE(model.columnCount(), ConfigDiffModel::FirstRunColumn + 3); // + description
        QCOMPARE(model.descriptionColumn(), ConfigDiffModel::FirstRunColumn + 2);
        QCOMPARE(model.headerData(ConfigDiffModel::FirstRunColumn + 1, Qt::Horizontal).toString(),
                 QString("#2 max-autotune"));
        int row = model.rowOfOption("max_autotune");
        QVERIFY(row >= 0);
        const int a = ConfigDiffModel::FirstRunColumn;
        const int b = a + 1;
        QCOMPARE(cell(model, row, ConfigDiffModel::OptionColumn), QString("max_autotune"));
        QCOMPARE(cell(model, row, ConfigDiffModel::DefaultColumn), QString("False"));
        QCOMPARE(cell(model, row, a), QString("False · default"));
        QCOMPARE(cell(model, row, b), QString("True · mode"));
        QVERIFY(!model.index(row, a).data(Qt::BackgroundRole).isValid());
        QVERIFY(model.index(row, b).data(Qt::BackgroundRole).value<QColor>().isValid());
        QString tip = cell(model, row, b, Qt::ToolTipRole);
        QVERIFY2(tip.contains("mode=\"max-autotune\"") && tip.contains("default: False"),
                 qPrintable(tip));
        QVERIFY(cell(model, row, a, Qt::ToolTipRole).contains("the default"));
    }

    void optionsAtTheirDefaultEverywhereAreHidden() {
        ConfigDiffModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns({m_a, m_b});
        std::string untouched = untouchedOption(*m_a, *m_b);
        QVERIFY(!untouched.empty());
        QCOMPARE(model.rowOfOption(QString::fromStdString(untouched)), -1);
        // Every row shown has a value off its default in some run.
        for (int r = 0; r < model.rowCount(); ++r) {
            QString fallback = cell(model, r, ConfigDiffModel::DefaultColumn);
            bool changed = false;
            for (int c = ConfigDiffModel::FirstRunColumn; c < model.descriptionColumn(); ++c)
                changed |= !cell(model, r, c).startsWith(fallback + " · ");
            QVERIFY2(changed, qPrintable(cell(model, r, ConfigDiffModel::OptionColumn)));
        }
        QCOMPARE(model.rowCount(), model.differingCount());
        // Descriptions come from the option catalog; without one the column stays empty.
        views::OptionHelp help{"Benchmark candidates.", "TORCHINDUCTOR_MAX_AUTOTUNE"};
        model.setOptionHelp({{"max_autotune", help}});
        int row = model.rowOfOption("max_autotune");
        QCOMPARE(cell(model, row, model.descriptionColumn()), help.description);
        QCOMPARE(cell(model, row, ConfigDiffModel::OptionColumn, Qt::ToolTipRole),
                 help.description);
        model.setShowAll(true);
        QVERIFY(model.rowOfOption(QString::fromStdString(untouched)) >= 0);
        std::set<std::string> keys;
        for (const auto& s : {m_a, m_b})
            for (const trace::ConfigRow& c : s->config)
                keys.insert(c.key);
        QCOMPARE(model.rowCount(), static_cast<int>(keys.size()));
        QCOMPARE(model.optionCount(), static_cast<int>(keys.size()));
    }

    void thePanelShowsEveryRunAndFilters() {
        views::TraceSession session;
        views::Selection selection;
        views::ConfigPanel panel(session, selection);
        panel.resize(1100, 650);
        session.open(m_trace);
        QTRY_COMPARE(panel.model().runCount(), 2);
        QCOMPARE(panel.shownRuns(), QList<qint64>({1, 2}));
        QAbstractItemModel* shown = panel.table()->model();
        QVERIFY(shown->rowCount() > 0);
        int maxAutotune = panel.model().rowOfOption("max_autotune");
        QVERIFY(maxAutotune >= 0);
        // The option catalog says what it does.
        QVERIFY(cell(panel.model(), maxAutotune, panel.model().descriptionColumn())
                    .contains("Benchmark candidate kernels"));
        QVERIFY(panel.grab().save("/tmp/config-panel.png"));

        panel.filterBox()->setText("AUTOTUNE");
        QVERIFY(shown->rowCount() > 0);
        for (int r = 0; r < shown->rowCount(); ++r)
            QVERIFY(cell(*shown, r, ConfigDiffModel::OptionColumn).contains("autotune"));
        int changedAutotune = shown->rowCount();
        panel.showAllBox()->setChecked(true);
        QVERIFY(shown->rowCount() >= changedAutotune);
        for (int r = 0; r < shown->rowCount(); ++r)
            QVERIFY(cell(*shown, r, ConfigDiffModel::OptionColumn).contains("autotune"));
        panel.filterBox()->clear();
        QCOMPARE(shown->rowCount(), panel.model().optionCount());
        QVERIFY(panel.grab().save("/tmp/config-panel-all.png"));

        panel.showRuns({2});
        QTRY_COMPARE(panel.model().runCount(), 1);
        QCOMPARE(
            panel.model().headerData(ConfigDiffModel::FirstRunColumn, Qt::Horizontal).toString(),
            QString("#2 max-autotune"));
        // The selected run is always shown.
        selection.selectRun(1);
        QTRY_COMPARE(panel.model().runCount(), 2);
    }
};

QTEST_MAIN(ConfigDiffTest)
#include "tst_config_diff.moc"
