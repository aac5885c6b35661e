// SPDX-License-Identifier: MIT
/// \file
/// The torch.compile'd functions and modules a run called, each with the arguments of its
/// latest call, so that a run that measures its compiled frames (`kiln run --measure`) can
/// call them again once the script has finished. Only outermost calls count: a compiled
/// function called inside another is measured as part of it. Recording is off unless the
/// run measures, so other runs keep no arguments alive.
#pragma once

#include "lang/objects.h"

#include <string>
#include <vector>

namespace kiln::capture {

struct CompiledCallSite {
    std::string name;     ///< the function's __name__, or the module's class name
    lang::Value compiled; ///< what torch.compile returned (its spec and target)
    std::vector<lang::Value> positional;
    std::vector<lang::Symbol> keywordNames;
    std::vector<lang::Value> keywordValues;
    /// Grad mode at that call: a call repeated under another (a script that called it inside
    /// torch.no_grad()) fails the entry's global-state guard and recompiles.
    bool gradMode = true;

    lang::CallArgs args() const { return {positional, keywordNames, keywordValues}; }
};

class CompiledCallSites {
public:
    void setRecording(bool on) { m_recording = on; }
    bool recording() const { return m_recording; }

    /// A call of `compiled` starts; it is outermost when no other compiled call is running.
    /// Records its arguments (replacing an earlier call's) when recording and outermost.
    void enter(const std::string& name, const lang::Value& compiled, const lang::CallArgs& args);
    void leave() { --m_depth; }

    /// In the order of their first call.
    const std::vector<CompiledCallSite>& sites() const { return m_sites; }

private:
    bool m_recording = false;
    int m_depth = 0;
    std::vector<CompiledCallSite> m_sites;
};

} // namespace kiln::capture
