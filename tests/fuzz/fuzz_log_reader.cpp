// SPDX-License-Identifier: MIT
// libFuzzer target: the TORCH_TRACE reader on arbitrary bytes (glog prefixes, JSON envelopes,
// tab-indented payloads, the string table, MD5 checks), and every payload through the text
// readers the importer uses on it (C++ guards, readable graphs, output code, break reasons,
// recompile reasons).
// Damage is reported, never a crash.
#include "import/log_reader.h"
#include "import/payload_text.h"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    kiln::importer::LogReader reader(in);
    kiln::importer::LogRecord record;
    while (reader.next(record)) {
        (void)reader.internedString(record.pid);
        if (!record.hasPayload) continue;
        (void)kiln::importer::parseCppGuards(record.payload, "0/0");
        (void)kiln::importer::parseGuardList(record.payload, "0/0");
        (void)kiln::importer::parseReadableGraph(record.payload);
        (void)kiln::importer::parseOutputCode(record.payload);
        (void)kiln::importer::parseGraphBreakReason(record.payload);
        (void)kiln::importer::parseRecompileReason(record.payload);
    }
    // Every problem is counted, and at most kMaxProblems are kept.
    if (reader.problemCount() < static_cast<int64_t>(reader.problems().size()) ||
        reader.problems().size() > kiln::importer::LogReader::kMaxProblems)
        __builtin_trap();
    return 0;
}
