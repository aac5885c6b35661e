// SPDX-License-Identifier: MIT
#include "capture/backends.h"

#include <algorithm>

namespace kiln::capture {

BackendRegistry::BackendRegistry() {
    // The backends Kiln implements, tagged as PyTorch 2.3 tags them: eager and aot_eager are
    // debug backends, so list_backends() shows only cudagraphs and inductor.
    m_entries.push_back({Backend{Backend::Kind::CudaGraphs, "cudagraphs", {}}, {}});
    m_entries.push_back({Backend{Backend::Kind::Inductor, "inductor", {}}, {}});
    m_entries.push_back({Backend{Backend::Kind::Eager, "eager", {}}, {"debug"}});
    m_entries.push_back({Backend{Backend::Kind::AotEager, "aot_eager", {}}, {"debug"}});
}

std::optional<Backend> BackendRegistry::find(const std::string& name) const {
    for (const Entry& e : m_entries)
        if (e.backend.name == name) return e.backend;
    return std::nullopt;
}

bool BackendRegistry::add(const std::string& name, lang::Value compilerFn,
                          std::vector<std::string> tags) {
    if (find(name)) return false;
    m_entries.push_back(
        {Backend{Backend::Kind::Custom, name, std::move(compilerFn)}, std::move(tags)});
    return true;
}

std::vector<std::string> BackendRegistry::list(const std::vector<std::string>& excludeTags,
                                               bool all) const {
    std::vector<std::string> out;
    for (const Entry& e : m_entries) {
        bool excluded =
            !all && std::any_of(e.tags.begin(), e.tags.end(), [&](const std::string& t) {
                return std::find(excludeTags.begin(), excludeTags.end(), t) != excludeTags.end();
            });
        if (!excluded) out.push_back(e.backend.name);
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace kiln::capture
