// SPDX-License-Identifier: MIT
#include "import/log_reader.h"

#include "import/md5.h"

#include <cstdlib>

namespace kiln::importer {
namespace {

// Envelope keys that describe the record rather than name it.
bool isMetadataKey(const std::string& key) {
    return key == "frame_id" || key == "frame_compile_id" || key == "attempt" ||
           key == "has_payload" || key == "rank" || key == "compiled_autograd_id";
}

// A glog prefix: level letter, "MMDD HH:MM:SS.ffffff", a process id, "file:line]".
bool parsePrefix(const std::string& prefix, LogRecord& record) {
    if (prefix.size() < 6 || std::string("VIWEF").find(prefix[0]) == std::string::npos)
        return false;
    size_t dateEnd = prefix.find(' ');
    size_t timeEnd = dateEnd == std::string::npos ? dateEnd : prefix.find(' ', dateEnd + 1);
    if (timeEnd == std::string::npos) return false;
    record.timestamp = prefix.substr(1, timeEnd - 1);
    size_t pidEnd = prefix.find(' ', timeEnd + 1);
    if (pidEnd == std::string::npos) return false;
    record.pid = std::strtoll(prefix.c_str() + timeEnd + 1, nullptr, 10);
    size_t locationStart = prefix.rfind(' ');
    record.sourceLocation = prefix.substr(locationStart + 1);
    return true;
}

} // namespace

LogReader::LogReader(std::istream& in)
    : m_in(in) {}

bool LogReader::readLine(std::string& line) {
    if (m_hasPending) {
        m_hasPending = false;
        line = std::move(m_pending);
        return true;
    }
    if (!std::getline(m_in, line)) return false;
    ++m_lineNo;
    m_bytesRead += int64_t(line.size()) + 1;
    return true;
}

void LogReader::problem(int64_t line, std::string message) {
    ++m_problemCount;
    if (m_problems.size() < kMaxProblems) m_problems.push_back({line, std::move(message)});
}

bool LogReader::parseEnvelope(const std::string& line, LogRecord& record) {
    size_t close = line.find("] {");
    if (close == std::string::npos || !parsePrefix(line.substr(0, close + 1), record)) {
        problem(m_lineNo, "not a structured-trace record");
        return false;
    }
    record.envelope = nlohmann::json::parse(line.begin() + long(close) + 2, line.end(), nullptr,
                                            /*allow_exceptions=*/false);
    if (!record.envelope.is_object()) {
        problem(m_lineNo, "the record's JSON does not parse (a cut or damaged line)");
        return false;
    }
    record.kind.clear();
    for (const auto& [key, value] : record.envelope.items())
        if (!isMetadataKey(key)) {
            record.kind = key;
            break;
        }
    return true;
}

void LogReader::readPayload(LogRecord& record) {
    auto digest = record.envelope.find("has_payload");
    record.hasPayload = digest != record.envelope.end();
    record.payload.clear();
    record.md5Mismatch = false;
    if (!record.hasPayload) return;
    Md5 md5;
    std::string line;
    bool first = true;
    while (readLine(line)) {
        if (line.empty() || line[0] != '\t') {
            m_pending = std::move(line);
            m_hasPending = true;
            break;
        }
        std::string_view text(line.data() + 1, line.size() - 1);
        if (!first) {
            md5.update("\n");
            record.payload += '\n';
        }
        md5.update(text);
        record.payload += text;
        first = false;
    }
    std::string expected = digest->is_string() ? digest->get<std::string>() : "";
    if (md5.finishHex() != expected) {
        record.md5Mismatch = true;
        ++m_md5Mismatches;
        problem(record.line, "the payload of '" + record.kind +
                                 "' does not match its has_payload MD5 (damaged or cut)");
    }
}

bool LogReader::internString(const LogRecord& record) {
    if (record.kind != "str") return false;
    const auto& pair = *record.envelope.find("str"); // kind "str": the key is there
    if (pair.is_array() && pair.size() == 2 && pair[0].is_string() && pair[1].is_number_integer())
        m_strings[pair[1].get<int64_t>()] = pair[0].get<std::string>();
    else
        problem(record.line, "a 'str' record without [text, index]");
    return true;
}

bool LogReader::next(LogRecord& record) {
    std::string line;
    while (readLine(line)) {
        if (line.empty()) continue;
        if (line[0] == '\t') { // payload lines of a record that did not parse
            problem(m_lineNo, "payload line without a record");
            continue;
        }
        record = LogRecord();
        record.line = m_lineNo;
        if (!parseEnvelope(line, record)) continue;
        readPayload(record);
        if (!internString(record)) return true;
    }
    return false;
}

const std::string& LogReader::internedString(int64_t index) const {
    static const std::string kNone;
    auto it = m_strings.find(index);
    return it == m_strings.end() ? kNone : it->second;
}

} // namespace kiln::importer
