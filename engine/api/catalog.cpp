// SPDX-License-Identifier: MIT
#include "api/catalog.h"

#include "diagram/diagram_render.h"
#include "support/options.h"

namespace kiln::api {

std::vector<OptionInfo> inductorOptions() {
    std::vector<OptionInfo> out;
    for (const OptionDecl& d : inductorOptionRegistry().decls())
        out.push_back(
            {d.name, optionTypeName(d.type), pythonRepr(d.defaultValue), d.description, d.envVar});
    return out;
}

std::vector<std::string> compileModes() {
    std::vector<std::string> out;
    for (std::string_view m : compileModeNames())
        out.emplace_back(m);
    return out;
}

std::vector<std::pair<std::string, std::string>> modeOptionReprs(std::string_view mode) {
    std::vector<std::pair<std::string, std::string>> out;
    if (auto items = modeOptions(mode))
        for (const auto& [key, value] : *items)
            out.emplace_back(key, pythonRepr(value));
    return out;
}

std::vector<std::string> builtinBackends() {
    // capture::BackendRegistry's built-in entries (a unit test keeps the two lists equal); the
    // catalog does not link the capture layer.
    return {"inductor", "eager", "aot_eager", "cudagraphs"};
}

Expected<std::string> renderDiagram(std::string_view dot, std::string_view format) {
    auto parsed = diagram::parseImageFormat(format);
    if (!parsed)
        return makeDiagnostic("DiagramError",
                              "unknown image format '" + std::string(format) + "' (svg or png)");
    return diagram::renderDot(dot, *parsed);
}

} // namespace kiln::api
