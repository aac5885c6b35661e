// SPDX-License-Identifier: MIT
// libFuzzer target: the torch.profiler Chrome-trace reader (kiln import PROFILE.json) on
// arbitrary bytes: streamed JSON, traceEvents entries of any shape. A damaged file is an error
// with a message, never a crash; a file that reads gives events with their fields in range.
#include "import/profile_import.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    auto profile = kiln::importer::readProfile(in, "fuzz.json", static_cast<int64_t>(size));
    if (!profile) {
        if (profile.error().message.empty()) __builtin_trap(); // every refusal says why
        return 0;
    }
    for (const kiln::importer::ProfileEvent& e : profile->events)
        if (e.index < 1) __builtin_trap();
    return 0;
}
