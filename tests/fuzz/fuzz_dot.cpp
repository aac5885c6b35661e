// SPDX-License-Identifier: MIT
// libFuzzer target: DOT text through the diagram renderer (Graphviz's parser and layout behind
// Kiln's size limit, time limit and error capture) to SVG. Malformed, huge or endless graphs are
// a DiagramError.
#include "diagram/diagram_render.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 4096) return 0; // layouts grow superlinearly; keep each input quick
    std::string_view dot(reinterpret_cast<const char*>(data), size);
    // A layout that never ends (findings/dot-layout-hang.dot) is stopped at the time limit:
    // an error like any other, and the fuzzer goes on.
    auto svg = kiln::diagram::renderDot(dot, kiln::diagram::ImageFormat::Svg, "dot",
                                        std::chrono::seconds(2));
    // Bad DOT is a DiagramError; a success is an SVG document.
    if (!svg.ok() && svg.error().kind != "DiagramError") __builtin_trap();
    if (svg.ok() && svg->find("<svg") == std::string::npos) __builtin_trap();
    return 0;
}
