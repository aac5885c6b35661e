// SPDX-License-Identifier: MIT
// libFuzzer target: DOT text through the diagram renderer (Graphviz's parser and layout behind
// Kiln's size limit and error capture) to SVG. Malformed or huge graphs are a DiagramError.
#include "diagram/diagram_render.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 4096) return 0; // layouts grow superlinearly; keep each input quick
    std::string_view dot(reinterpret_cast<const char*>(data), size);
    (void)kiln::diagram::renderDot(dot, kiln::diagram::ImageFormat::Svg);
    return 0;
}
