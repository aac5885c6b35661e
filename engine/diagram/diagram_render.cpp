// SPDX-License-Identifier: MIT
#include "diagram/diagram_render.h"

#include "support/time_limited_child.h"
#include "support/utf8.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#ifdef KILN_HAVE_GRAPHVIZ
#include <cgraph.h>
#include <gvc.h>
#endif

namespace kiln::diagram {

namespace {

constexpr const char* kKind = "DiagramError";

Diagnostic diagramError(std::string message) {
    return makeDiagnostic(kKind, std::move(message));
}

} // namespace

const char* imageFormatName(ImageFormat format) {
    switch (format) {
    case ImageFormat::Svg:
        return "svg";
    case ImageFormat::Png:
        return "png";
    }
    return "svg";
}

std::optional<ImageFormat> parseImageFormat(std::string_view name) {
    if (name == "svg") return ImageFormat::Svg;
    if (name == "png") return ImageFormat::Png;
    return std::nullopt;
}

#ifdef KILN_HAVE_GRAPHVIZ

namespace {

// Everything below is guarded by g_mutex: the context, and the capture of Graphviz's messages.
std::mutex g_mutex;
GVC_t* g_context = nullptr; // created on first use; lives as long as the process
std::string* g_messages = nullptr;

// Graphviz's error channel (agerr) calls this with pieces of a message ("Error", ": ", the
// text). While a render runs they are collected; any other caller of Graphviz in the process
// (there is none today) gets Graphviz's default behaviour, stderr.
int collectMessage(char* piece) {
    if (!piece) return 0;
    if (g_messages)
        g_messages->append(piece);
    else
        std::fputs(piece, stderr);
    return 0;
}

GVC_t* context() {
    if (!g_context) {
        agseterrf(collectMessage);
        g_context = gvContext();
    }
    return g_context;
}

// Graphviz's messages as one line: the errors (without their "Error: " prefix), or every
// message when none is marked as an error, or \p fallback when Graphviz said nothing.
std::string describe(const std::string& messages, const std::string& fallback) {
    std::vector<std::string> errors, all;
    size_t start = 0;
    while (start < messages.size()) {
        size_t end = messages.find('\n', start);
        if (end == std::string::npos) end = messages.size();
        std::string line = messages.substr(start, end - start);
        start = end + 1;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.pop_back();
        if (line.empty()) continue;
        if (line.rfind("Error: ", 0) == 0)
            errors.push_back(line.substr(7));
        else
            all.push_back(line);
    }
    const std::vector<std::string>& chosen = errors.empty() ? all : errors;
    if (chosen.empty()) return fallback;
    std::string text;
    for (const std::string& line : chosen)
        text += (text.empty() ? "" : "; ") + line;
    return text;
}

// Graphviz's lexer keeps what it buffered after the graph it returned (trailing newlines, or
// further graphs in the same text) and would hand it to the next agmemread as the start of
// *that* text. Reading until it reports the end consumes the rest (a failed read flushes the
// lexer), so every render starts clean. Graphs after the first are ignored, as Graphviz's
// library readers do; text after it that is not DOT is reported like any syntax error.
void drainParser() {
    for (int i = 0; i < 1000; ++i) {
        Agraph_t* extra = agmemread("");
        if (!extra) return;
        agclose(extra);
    }
}

// Owns a parsed graph for the length of one render (its layout is made and freed with the
// child process that makes it).
struct GraphHandle {
    Agraph_t* graph;

    ~GraphHandle() {
        if (graph) agclose(graph);
    }
};

/// Where the graph gives a colour attribute a weighted colour list ("red;0.3:blue", a gradient),
/// as "node a: fillcolor=..."; empty when it gives none. Debian's Graphviz 2.42 dereferences
/// NULL on some such lists (findStopColor, found by fuzz_dot), so they are refused up front.
std::string colourListIn(Agraph_t* graph) {
    static const char* const kAttributes[] = {"color", "fillcolor", "bgcolor", "pencolor"};
    auto check = [](void* object, const char* what) -> std::string {
        for (const char* attribute : kAttributes) {
            const char* value = agget(object, const_cast<char*>(attribute));
            if (value && std::strpbrk(value, ";:"))
                return std::string(what) + ": " + attribute + "=" + value;
        }
        return {};
    };
    if (std::string w = check(graph, "graph"); !w.empty()) return w;
    for (Agraph_t* sub = agfstsubg(graph); sub; sub = agnxtsubg(sub))
        if (std::string w = colourListIn(sub); !w.empty()) return w;
    for (Agnode_t* n = agfstnode(graph); n; n = agnxtnode(graph, n)) {
        if (std::string w = check(n, "node"); !w.empty()) return w;
        for (Agedge_t* e = agfstout(graph, n); e; e = agnxtout(graph, e))
            if (std::string w = check(e, "edge"); !w.empty()) return w;
    }
    return {};
}

enum ChildCode { kImage = 0, kLayoutFailed = 1, kRenderFailed = 2 };

/// In the child process: the image, or Graphviz's messages with the step that failed.
ChildOutput layOutAndRender(GVC_t* gvc, Agraph_t* graph, const std::string& engine,
                            ImageFormat format, std::string& messages) {
    if (gvLayout(gvc, graph, engine.c_str()) != 0)
        return {kLayoutFailed, describe(messages, "the layout failed")};
    char* data = nullptr;
    unsigned int length = 0; // unsigned int* in Graphviz 2.4x (size_t* in newer releases)
    if (gvRenderData(gvc, graph, imageFormatName(format), &data, &length) != 0 || !data)
        return {kRenderFailed, describe(messages, "the renderer failed")};
    return {kImage, std::string(data, length)};
}

Expected<std::string> imageOf(const ChildResult& child, const std::string& engine,
                              ImageFormat format, std::chrono::milliseconds timeLimit) {
    const char* formatName = imageFormatName(format);
    auto seconds = [](std::chrono::milliseconds t) {
        char text[32];
        std::snprintf(text, sizeof text, "%g s", static_cast<double>(t.count()) / 1000);
        return std::string(text);
    };
    switch (child.end) {
    case ChildResult::End::CouldNotStart:
        return diagramError("cannot lay out the diagram: " + child.error);
    case ChildResult::End::TimedOut: {
        Diagnostic error = diagramError("Graphviz's '" + engine + "' layout did not finish in " +
                                        seconds(timeLimit) + " and was stopped");
        error.notes.push_back("export the diagram as DOT text (`kiln export-diagram ... --format "
                              "dot`) and try another layout engine, e.g. `sfdp`");
        return error;
    }
    case ChildResult::End::Crashed:
        return diagramError(
            "Graphviz crashed laying out or rendering the diagram" +
            (child.signal ? " (signal " + std::to_string(child.signal) + ")" : std::string()));
    case ChildResult::End::Finished:
        break;
    }
    if (child.code == kLayoutFailed) {
        Diagnostic error = diagramError("Graphviz cannot lay out the diagram with '" + engine +
                                        "': " + child.bytes);
        error.notes.push_back("the layout engines are plugins of the graphviz package: install "
                              "it (packaging/install-deps.sh) or register them with `dot -c`");
        return error;
    }
    if (child.code == kRenderFailed) {
        Diagnostic error =
            diagramError(std::string("Graphviz cannot render ") + formatName + ": " + child.bytes);
        if (format == ImageFormat::Png)
            error.notes.push_back("PNG output needs Graphviz's cairo plugin (libgvplugin_pango, "
                                  "part of libgvc6); install graphviz or register plugins with "
                                  "`dot -c`");
        return error;
    }
    if (child.bytes.empty())
        return diagramError(std::string("Graphviz rendered an empty ") + formatName + " image");
    return child.bytes;
}

} // namespace

bool graphvizAvailable() {
    return true;
}

Expected<std::string> renderDot(std::string_view dot, ImageFormat format, std::string_view layout,
                                std::chrono::milliseconds timeLimit) {
    if (dot.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return diagramError("cannot render an empty DOT text");
    // Graphviz hands labels to Pango, which takes UTF-8 only (and warns on stderr otherwise).
    if (std::optional<size_t> bad = firstInvalidUtf8(dot))
        return diagramError("the DOT text is not valid UTF-8 (byte " + std::to_string(*bad) + ")");
    std::string text(dot);      // NUL-terminated for agmemread
    std::string engine(layout); // and for gvLayout
    std::lock_guard lock(g_mutex);
    std::string messages;
    g_messages = &messages;
    struct StopCollecting {
        ~StopCollecting() { g_messages = nullptr; }
    } stopCollecting;

    GVC_t* gvc = context();
    if (!gvc) return diagramError("cannot start Graphviz (gvContext failed)");
    agreseterrors();
    // The parser's line counter is global and not reset between reads of memory: without this
    // an error after an earlier render names the wrong line.
    agreadline(1);
    GraphHandle handle{agmemread(text.c_str())};
    if (!handle.graph)
        return diagramError("malformed DOT text: " +
                            describe(messages, "Graphviz could not parse it"));
    drainParser();
    if (messages.find("Error: ") != std::string::npos) // text after the graph that is not DOT
        return diagramError("malformed DOT text: " + describe(messages, "trailing text"));
    messages.clear();
    // Graphviz's layouts grow much faster than the graph (dot: 2 s for 1,000 nodes and 2,000
    // edges, 17 s for twice that, 92 s for four times) and cannot be interrupted, so a huge
    // diagram is refused instead of hanging its caller.
    const int nodes = agnnodes(handle.graph), edges = agnedges(handle.graph);
    if (nodes + edges > kMaxDiagramElements) {
        Diagnostic error = diagramError(
            "the diagram has " + std::to_string(nodes) + " nodes and " + std::to_string(edges) +
            " edges; Kiln draws diagrams of up to " + std::to_string(kMaxDiagramElements) +
            " nodes and edges together, since Graphviz's layout of larger ones takes minutes");
        error.notes.push_back("export it as DOT text (`kiln export-diagram ... --format dot`, or "
                              "DOT in Studio's export) and lay it out with Graphviz's `dot`");
        return error;
    }
    if (std::string where = colourListIn(handle.graph); !where.empty())
        return diagramError("the diagram uses a colour list (" + where +
                            "); Kiln's diagrams draw plain colours only, and the Graphviz it "
                            "links crashes on some lists");
    ChildResult child = runInTimeLimitedChild(
        [&] { return layOutAndRender(gvc, handle.graph, engine, format, messages); }, timeLimit);
    return imageOf(child, engine, format, timeLimit);
}

#else // !KILN_HAVE_GRAPHVIZ

bool graphvizAvailable() {
    return false;
}

Expected<std::string> renderDot(std::string_view, ImageFormat format, std::string_view,
                                std::chrono::milliseconds) {
    Diagnostic error = diagramError(std::string("cannot render ") + imageFormatName(format) +
                                    ": this Kiln was built without Graphviz");
    error.notes.push_back("install libgraphviz-dev (packaging/install-deps.sh) and rebuild, or "
                          "export the diagram as DOT text");
    return error;
}

#endif

} // namespace kiln::diagram
