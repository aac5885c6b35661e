// SPDX-License-Identifier: MIT
// The front-end catalog (engine/api/catalog.h) says what the engine accepts: its backends are
// the capture layer's built-in ones, its options and modes the registry's, and it renders
// diagrams.
#include "api/catalog.h"
#include "capture/backends.h"
#include "support/options.h"

#include <QtTest>

using namespace kiln;

class ApiCatalogTest : public QObject {
    Q_OBJECT

private slots:
    void backendsAreTheCaptureLayersBuiltins() {
        capture::BackendRegistry registry;
        std::vector<std::string> all = registry.list({}, true);
        std::vector<std::string> catalog = api::builtinBackends();
        std::sort(catalog.begin(), catalog.end());
        QCOMPARE(catalog, all);
    }

    void optionsAreTheRegistrysWithDefaults() {
        auto options = api::inductorOptions();
        QCOMPARE(options.size(), inductorOptionRegistry().size());
        auto it = std::find_if(options.begin(), options.end(),
                               [](const api::OptionInfo& o) { return o.name == "max_autotune"; });
        QVERIFY(it != options.end());
        QCOMPARE(it->type, std::string("bool"));
        QCOMPARE(it->defaultRepr, std::string("False"));
        QVERIFY(!it->description.empty());
    }

    void modesAndWhatTheySet() {
        auto modes = api::compileModes();
        QCOMPARE(modes.front(), std::string("default"));
        QVERIFY(std::find(modes.begin(), modes.end(), "max-autotune") != modes.end());
        auto sets = api::modeOptionReprs("max-autotune");
        QVERIFY(std::find(sets.begin(), sets.end(),
                          std::pair<std::string, std::string>("max_autotune", "True")) !=
                sets.end());
        QVERIFY(api::modeOptionReprs("default").empty());
        QVERIFY(api::modeOptionReprs("no-such-mode").empty());
    }

    void rendersDiagramsAndRefusesUnknownFormats() {
        auto svg = api::renderDiagram("digraph { a -> b }", "svg");
        QVERIFY2(svg.ok(), svg.ok() ? "" : svg.error().message.c_str());
        QVERIFY(svg.value().find("<svg") != std::string::npos);
        auto bad = api::renderDiagram("digraph { a -> b }", "gif");
        QVERIFY(!bad.ok());
        QVERIFY(bad.error().message.find("gif") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(ApiCatalogTest)
#include "tst_api_catalog.moc"
