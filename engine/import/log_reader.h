// SPDX-License-Identifier: MIT
/// \file
/// A streaming reader of PyTorch's structured trace (TORCH_TRACE, the format tlparse reads): one
/// glog-prefixed JSON envelope per line, its payload (if any) on the following tab-indented
/// lines, and `str` records that intern file names. The reader holds one record at a time, so a
/// log of any size is read in bounded memory. Damage is never fatal: a line that is not a record
/// is reported and skipped, a payload whose MD5 differs from `has_payload` is kept and reported.
#pragma once

#include <cstdint>
#include <istream>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

namespace kiln::importer {

/// One record of the log: the envelope, what the glog prefix says, and the payload.
struct LogRecord {
    int64_t line = 0;           ///< 1-based line of the envelope
    std::string timestamp;      ///< the prefix's "MMDD HH:MM:SS.ffffff"
    int64_t pid = 0;            ///< the prefix's process (or thread) id
    std::string sourceLocation; ///< "torch/_dynamo/convert_frame.py:276"
    std::string kind;           ///< the envelope's record key: "dynamo_start", "artifact", ...
    nlohmann::json envelope;    ///< the whole envelope object
    bool hasPayload = false;
    std::string payload;      ///< the payload lines without their tab, joined by '\n'
    bool md5Mismatch = false; ///< the payload's MD5 is not `has_payload`
};

/// Something the reader could not read as a record, with where.
struct LogProblem {
    int64_t line = 0;
    std::string message;
};

class LogReader {
public:
    explicit LogReader(std::istream& in);

    /// Reads the next record other than `str` (those fill the string table); false at the end.
    bool next(LogRecord& record);

    /// The interned string \p index, or "" when the log never defined it.
    const std::string& internedString(int64_t index) const;

    /// Problems in reading order; at most kMaxProblems kept, problemCount() counts them all.
    const std::vector<LogProblem>& problems() const { return m_problems; }
    int64_t problemCount() const { return m_problemCount; }
    int64_t md5Mismatches() const { return m_md5Mismatches; }
    /// Lines read so far.
    int64_t linesRead() const { return m_lineNo; }
    /// Bytes read so far (lines with their newlines), for progress reports.
    int64_t bytesRead() const { return m_bytesRead; }

    static constexpr size_t kMaxProblems = 50;

private:
    bool readLine(std::string& line);
    bool parseEnvelope(const std::string& line, LogRecord& record);
    void readPayload(LogRecord& record);
    bool internString(const LogRecord& record);
    void problem(int64_t line, std::string message);

    std::istream& m_in;
    int64_t m_lineNo = 0;
    int64_t m_bytesRead = 0;
    std::string m_pending; ///< a line read ahead while looking for payload lines
    bool m_hasPending = false;
    std::unordered_map<int64_t, std::string> m_strings;
    std::vector<LogProblem> m_problems;
    int64_t m_problemCount = 0;
    int64_t m_md5Mismatches = 0;
};

} // namespace kiln::importer
