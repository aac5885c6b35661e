// SPDX-License-Identifier: MIT
// Rendering DOT text with Graphviz in memory (engine/diagram): SVG with the node labels, PNG
// with its signature, errors instead of crashes or stderr noise for empty and malformed DOT and
// for a layout engine that is not installed, renders that start clean after earlier good and bad
// ones (Graphviz's parser keeps state between calls), and renders from several threads at once.
#include "diagram/diagram_render.h"
#include "support/utf8.h"

#include <QtTest>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>
#include <vector>

using namespace kiln::diagram;

namespace {

constexpr const char* kSmallGraph = R"dot(digraph G {
  rankdir=TB;
  node [shape=box];
  l_x_ [label="l_x_"];
  kiln_poi_fused_add_cos_sin_0 [label="kiln_poi_fused_add_cos_sin_0"];
  output [label="output"];
  l_x_ -> kiln_poi_fused_add_cos_sin_0 -> output;
}
)dot";

bool isPng(const std::string& bytes) {
    static const char signature[] = {'\x89', 'P', 'N', 'G', '\r', '\n', '\x1a', '\n'};
    return bytes.size() > sizeof signature &&
           std::equal(std::begin(signature), std::end(signature), bytes.begin());
}

} // namespace

class DiagramRenderTest : public QObject {
    Q_OBJECT

private slots:
    void init() {
        bool stubTest = std::string(QTest::currentTestFunction()) == "buildWithoutGraphviz";
        if (!graphvizAvailable() && !stubTest) QSKIP("this build has no Graphviz");
    }

    void buildWithoutGraphviz() {
        if (graphvizAvailable()) QSKIP("this build has Graphviz");
        auto result = renderDot(kSmallGraph, ImageFormat::Png);
        QVERIFY(!result.ok());
        QCOMPARE(result.error().kind, std::string("DiagramError"));
        QCOMPARE(result.error().message,
                 std::string("cannot render png: this Kiln was built without Graphviz"));
    }

    void formatNames() {
        QCOMPARE(std::string(imageFormatName(ImageFormat::Svg)), std::string("svg"));
        QCOMPARE(std::string(imageFormatName(ImageFormat::Png)), std::string("png"));
        QCOMPARE(parseImageFormat("svg"), std::optional<ImageFormat>(ImageFormat::Svg));
        QCOMPARE(parseImageFormat("png"), std::optional<ImageFormat>(ImageFormat::Png));
        QVERIFY(!parseImageFormat("dot").has_value());
        QVERIFY(!parseImageFormat("SVG").has_value());
    }

    void rendersSvgWithTheNodeLabels() {
        auto svg = renderDot(kSmallGraph, ImageFormat::Svg);
        QVERIFY2(svg.ok(), svg.ok() ? "" : svg.error().render().c_str());
        QVERIFY(svg->find("<svg") != std::string::npos);
        QVERIFY(svg->find("</svg>") != std::string::npos);
        for (const char* label : {">l_x_<", ">kiln_poi_fused_add_cos_sin_0<", ">output<"})
            QVERIFY2(svg->find(label) != std::string::npos, label);
    }

    void rendersPng() {
        auto png = renderDot(kSmallGraph, ImageFormat::Png);
        QVERIFY2(png.ok(), png.ok() ? "" : png.error().render().c_str());
        QVERIFY(png->size() > 100);
        QVERIFY(isPng(*png));
        // The IHDR chunk follows the signature and gives a nonzero width and height.
        QCOMPARE(png->substr(12, 4), std::string("IHDR"));
        auto be32 = [&](size_t at) {
            const auto* p = reinterpret_cast<const unsigned char*>(png->data() + at);
            return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
        };
        QVERIFY(be32(16) > 0);
        QVERIFY(be32(20) > 0);
    }

    void textThatIsNotUtf8IsAnError() {
        // Found by fuzz_dot: Pango warned on stderr once per label instead.
        auto bad = renderDot("digraph G { a [label=\"x\xff\xfey\"]; }", ImageFormat::Svg);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, std::string("DiagramError"));
        QCOMPARE(bad.error().message, std::string("the DOT text is not valid UTF-8 (byte 23)"));
        QCOMPARE(kiln::firstInvalidUtf8("plain ascii"), std::optional<size_t>());
        QCOMPARE(kiln::firstInvalidUtf8("\xc3\xa9t\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x94\xa5"),
                 std::optional<size_t>());                                        // été → 🔥
        QCOMPARE(kiln::firstInvalidUtf8("ab\xc0\xaf"), std::optional<size_t>(2)); // overlong '/'
        QCOMPARE(kiln::firstInvalidUtf8("\xed\xa0\x80"), std::optional<size_t>(0)); // a surrogate
        QCOMPARE(kiln::firstInvalidUtf8("\xf4\x90\x80\x80"),
                 std::optional<size_t>(0));                                      // > U+10FFFF
        QCOMPARE(kiln::firstInvalidUtf8("x\xe2\x86"), std::optional<size_t>(1)); // cut short
    }

    void colourListsAreRefused() {
        // Found by fuzz_dot: Debian's Graphviz 2.42 dereferences NULL rendering this (a
        // weighted colour list as a fill: findStopColor).
        const char* crash = "digraph G { node [shape=record, style=\"filled,rounded\"]; "
                            "a [label=\"{x|y}\", fillcolor=\"Alice;\n nodBlue\"]; }";
        auto bad = renderDot(crash, ImageFormat::Svg);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, std::string("DiagramError"));
        QVERIFY2(bad.error().message.find("the diagram uses a colour list (node: fillcolor=") == 0,
                 bad.error().message.c_str());
        auto edge = renderDot("digraph G { a -> b [color=\"red:blue\"]; }", ImageFormat::Svg);
        QVERIFY(!edge.ok());
        QVERIFY2(edge.error().message.find("(edge: color=red:blue)") != std::string::npos,
                 edge.error().message.c_str());
        auto plain =
            renderDot("digraph G { a [style=filled, fillcolor=\"#aabbcc\"]; }", ImageFormat::Svg);
        QVERIFY2(plain.ok(), plain.ok() ? "" : plain.error().render().c_str());
    }

    void aLayoutThatNeverEndsIsStopped() {
        // Found by fuzz_dot: Graphviz's dot layout of this garbage never finishes (nor does the
        // `dot` program's); renderDot stops it at its time limit, in a child process.
        const char* source = std::getenv("KILN_SOURCE_DIR");
        if (!source) QSKIP("KILN_SOURCE_DIR is not set (run through ctest)");
        std::ifstream file(std::string(source) +
                               "/tests/fuzz/corpus/dot/regression-layout-hang.dot",
                           std::ios::binary);
        QVERIFY(file);
        std::string hang((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        auto stopped = renderDot(hang, ImageFormat::Svg, "dot", std::chrono::milliseconds(1500));
        QVERIFY(!stopped.ok());
        QCOMPARE(stopped.error().kind, std::string("DiagramError"));
        QCOMPARE(stopped.error().message,
                 std::string("Graphviz's 'dot' layout did not finish in 1.5 s and was stopped"));
        // The process is unharmed: the next render works.
        auto next = renderDot(kSmallGraph, ImageFormat::Svg);
        QVERIFY2(next.ok(), next.ok() ? "" : next.error().render().c_str());
    }

    void malformedDotIsAnError() {
        auto bad = renderDot("digraph G { a -> ; }", ImageFormat::Svg);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().kind, std::string("DiagramError"));
        QVERIFY2(bad.error().message.find("malformed DOT text: syntax error in line 1") == 0,
                 bad.error().message.c_str());
        auto unbalanced = renderDot("digraph G { a -> b", ImageFormat::Png);
        QVERIFY(!unbalanced.ok());
        QVERIFY2(unbalanced.error().message.find("malformed DOT text") == 0,
                 unbalanced.error().message.c_str());
        auto notDot = renderDot("this is not a graph", ImageFormat::Svg);
        QVERIFY(!notDot.ok());
        // Graphviz recovers: the next good render works.
        auto good = renderDot(kSmallGraph, ImageFormat::Svg);
        QVERIFY2(good.ok(), good.ok() ? "" : good.error().render().c_str());
        QVERIFY(good->find(">output<") != std::string::npos);
    }

    void eachRenderStartsClean() {
        // Graphviz's lexer keeps what it read past the first graph; it must not leak into the
        // next render, and error line numbers must not count an earlier text's lines.
        auto first =
            renderDot("digraph one { a -> b }\n digraph two { leaked }\n\n", ImageFormat::Svg);
        QVERIFY(first.ok());
        QVERIFY(first->find("<title>one</title>") != std::string::npos);
        auto second = renderDot("digraph three { fresh }", ImageFormat::Svg);
        QVERIFY(second.ok());
        QVERIFY(second->find("<title>three</title>") != std::string::npos);
        QVERIFY(second->find(">fresh<") != std::string::npos);
        QVERIFY(second->find("leaked") == std::string::npos);
        QVERIFY(renderDot(std::string(kSmallGraph) + "\n\n\n", ImageFormat::Svg).ok());
        auto bad = renderDot("digraph G {\n  a -> ;\n}", ImageFormat::Svg);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.error().message,
                 std::string("malformed DOT text: syntax error in line 2 near ';'"));
        auto junk = renderDot("digraph G { a } junk", ImageFormat::Svg);
        QVERIFY(!junk.ok());
        QCOMPARE(junk.error().message,
                 std::string("malformed DOT text: syntax error in line 1 near 'junk'"));
    }

    void emptyDotIsAnError() {
        for (const char* text : {"", "  \n\t"}) {
            auto empty = renderDot(text, ImageFormat::Svg);
            QVERIFY(!empty.ok());
            QCOMPARE(empty.error().message, std::string("cannot render an empty DOT text"));
        }
    }

    void aDiagramTooLargeToLayOutQuicklyIsRefused() {
        // 20,001 edges once took Graphviz minutes: refused at once, with what to do instead.
        std::string dot = "digraph G {\n";
        for (int i = 1; i < 2000; ++i)
            dot += "n" + std::to_string(i - 1) + " -> n" + std::to_string(i) + ";\n";
        dot += "}\n";
        auto result = renderDot(dot, ImageFormat::Svg);
        QVERIFY(!result.ok());
        QCOMPARE(result.error().kind, std::string("DiagramError"));
        QVERIFY2(result.error().message.find("2000 nodes and 1999 edges") != std::string::npos,
                 result.error().message.c_str());
        QVERIFY(!result.error().notes.empty());
        // A diagram just under the limit is drawn.
        std::string small = "digraph G {\n";
        for (int i = 1; i < 1000; ++i)
            small += "n" + std::to_string(i - 1) + " -> n" + std::to_string(i) + ";\n";
        small += "}\n";
        QVERIFY(renderDot(small, ImageFormat::Svg).ok());
    }

    void missingLayoutEngineIsAnError() {
        auto result = renderDot(kSmallGraph, ImageFormat::Svg, "no_such_layout");
        QVERIFY(!result.ok());
        QCOMPARE(result.error().kind, std::string("DiagramError"));
        QVERIFY2(result.error().message.find(
                     "Graphviz cannot lay out the diagram with 'no_such_layout': Layout type: "
                     "\"no_such_layout\" not recognized") == 0,
                 result.error().message.c_str());
        QVERIFY(!result.error().notes.empty());
        QVERIFY(renderDot(kSmallGraph, ImageFormat::Svg).ok());
    }

    void labelsWithQuotesAndUnicode() {
        auto svg = renderDot("digraph { n [label=\"a \\\"quoted\\\" λ\"]; }", ImageFormat::Svg);
        QVERIFY2(svg.ok(), svg.ok() ? "" : svg.error().render().c_str());
        QVERIFY2(svg->find("quoted") != std::string::npos, svg->c_str());
        QVERIFY(svg->find("λ") != std::string::npos);
    }

    void rendersFromSeveralThreads() {
        std::atomic<int> good{0}, rejected{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (int i = 0; i < 10; ++i) {
                    bool malformed = (t + i) % 3 == 0;
                    auto result = renderDot(malformed ? "digraph { -> }" : kSmallGraph,
                                            i % 2 ? ImageFormat::Png : ImageFormat::Svg);
                    if (result.ok() && !malformed) ++good;
                    if (!result.ok() && malformed) ++rejected;
                }
            });
        for (auto& thread : threads)
            thread.join();
        QCOMPARE(good.load() + rejected.load(), 40);
        QVERIFY(rejected.load() > 0);
    }
};

QTEST_APPLESS_MAIN(DiagramRenderTest)
#include "tst_diagram_render.moc"
