// SPDX-License-Identifier: MIT
/// \file
/// Helpers for the trace tests: raw SQLite access to check what the writer put in the file
/// independently of TraceReader, and file bytes to prove that refused files stay untouched.
#pragma once

#include "trace/trace_types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::testing {

/// The whole file, or "" when it cannot be read.
std::string readFileBytes(const std::string& path);
void writeFileBytes(const std::string& path, const std::string& bytes);

/// Runs \p sql on a fresh read-write connection; returns SQLite's message or "" on success.
std::string execSql(const std::string& path, const std::string& sql);
/// The first column of the first row of \p sql as integer, or -1 on any failure.
int64_t queryInt(const std::string& path, const std::string& sql);
/// The first column of every row of \p sql as text.
std::vector<std::string> queryTexts(const std::string& path, const std::string& sql);

/// A RunInfo with every field set to something recognisable.
trace::RunInfo sampleRunInfo(const std::string& workloadPath);

} // namespace kiln::testing
