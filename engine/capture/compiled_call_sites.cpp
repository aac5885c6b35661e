// SPDX-License-Identifier: MIT
#include "capture/compiled_call_sites.h"

#include "tensor/tensor.h"

#include <algorithm>

namespace kiln::capture {

void CompiledCallSites::enter(const std::string& name, const lang::Value& compiled,
                              const lang::CallArgs& args) {
    if (m_depth++ > 0 || !m_recording) return;
    auto it = std::find_if(m_sites.begin(), m_sites.end(), [&](const CompiledCallSite& s) {
        return s.compiled.identical(compiled);
    });
    if (it == m_sites.end()) {
        m_sites.push_back({name, compiled, {}, {}, {}, true});
        it = m_sites.end() - 1;
    }
    it->positional.assign(args.positional.begin(), args.positional.end());
    it->keywordNames.assign(args.keywordNames.begin(), args.keywordNames.end());
    it->keywordValues.assign(args.keywordValues.begin(), args.keywordValues.end());
    it->gradMode = tensor::gradModeEnabled();
}

} // namespace kiln::capture
