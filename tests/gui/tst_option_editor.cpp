// SPDX-License-Identifier: MIT
// The run toolbar's option editor: one row per inductor option with its default, what the
// chosen mode sets, changed values highlighted and turned into `kiln run --options`; the
// toolbar's Measure turned into `kiln run --measure --warmup`.
#include "api/catalog.h"
#include "option_editor.h"
#include "run_controller.h"
#include "run_toolbar.h"

#include <QtTest>

using namespace kiln;

namespace {

int rowOf(const QStandardItemModel& model, const QString& option) {
    auto found = model.findItems(option, Qt::MatchExactly, 0);
    return found.isEmpty() ? -1 : found.front()->row();
}

} // namespace

class OptionEditorTest : public QObject {
    Q_OBJECT

private slots:
    void listsEveryOptionWithItsDefault() {
        studio::OptionEditor editor;
        QCOMPARE(static_cast<size_t>(editor.model().rowCount()), api::inductorOptions().size());
        int row = rowOf(editor.model(), "max_autotune");
        QVERIFY(row >= 0);
        QCOMPARE(editor.model().item(row, 1)->text(), QString("False"));
        QCOMPARE(editor.model().item(row, 2)->text(), QString("False"));
        QVERIFY(editor.overrides().isEmpty());
    }

    void showsWhatTheModeSets() {
        studio::OptionEditor editor;
        editor.setMode("max-autotune");
        QCOMPARE(editor.model().item(rowOf(editor.model(), "max_autotune"), 3)->text(),
                 QString("True"));
        editor.setMode("default");
        QCOMPARE(editor.model().item(rowOf(editor.model(), "max_autotune"), 3)->text(), QString());
    }

    void highlightsChangesAndTurnsThemIntoArguments() {
        studio::OptionEditor editor;
        int row = rowOf(editor.model(), "epilogue_fusion");
        QStandardItem* value = editor.model().item(row, 1);
        value->setText("False");
        QVERIFY(value->font().bold());
        QVERIFY(value->background().style() != Qt::NoBrush);
        QCOMPARE(editor.overrides(),
                 (QList<QPair<QString, QString>>{{"epilogue_fusion", "False"}}));
        value->setText(editor.model().item(row, 2)->text()); // back to the default
        QVERIFY(!value->font().bold());
        QVERIFY(editor.overrides().isEmpty());

        studio::RunRequest request;
        request.script = "w.py";
        request.trace = "w.kiln";
        request.mode = "max-autotune";
        request.options = {{"epilogue_fusion", "False"}, {"cpp.simdlen", "'avx'"}};
        QStringList args = request.arguments();
        QCOMPARE(args.mid(0, 4), (QStringList{"run", "w.py", "--db", "w.kiln"}));
        QVERIFY(args.contains("--mode"));
        QCOMPARE(args.last(), QString("epilogue_fusion=False,cpp.simdlen=avx"));
    }

    void theToolbarsMeasureBecomesRunArguments() {
        studio::RunToolBar toolbar;
        QStringList off = toolbar.request("w.py", "w.kiln").arguments();
        QVERIFY2(!off.contains("--measure"), qPrintable(off.join(' '))); // off by default
        toolbar.setMeasure(25, 4);
        studio::RunRequest r = toolbar.request("w.py", "w.kiln");
        QCOMPARE(r.measureCalls, 25);
        QCOMPARE(r.warmupCalls, 4);
        QStringList args = r.arguments();
        int at = static_cast<int>(args.indexOf("--measure"));
        QVERIFY(at > 0);
        QCOMPARE(args.mid(at, 4), (QStringList{"--measure", "25", "--warmup", "4"}));
    }
};

QTEST_MAIN(OptionEditorTest)
#include "tst_option_editor.moc"
