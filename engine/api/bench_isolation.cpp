// SPDX-License-Identifier: MIT
#include "api/bench_isolation.h"

#include "support/time_limited_child.h"
#include "trace/process_info.h"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace kiln::api {

namespace {

// Rows and fields are separated by ASCII's record and unit separators; a field cannot hold
// them (an error message's are replaced by spaces).
constexpr char kRowEnd = '\x1e';
constexpr char kFieldEnd = '\x1f';
constexpr size_t kFieldCount = 13;

std::string number(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

std::string clean(std::string text) {
    for (char& c : text)
        if (c == kRowEnd || c == kFieldEnd) c = ' ';
    return text;
}

bool parseNumber(const std::string& text, double& v) {
    if (text == "nan" || text == "-nan" || text == "inf" || text == "-inf") {
        v = std::strtod(text.c_str(), nullptr);
        return true;
    }
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return ec == std::errc() && end == text.data() + text.size();
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t end = text.find(separator); end != std::string::npos;
         end = text.find(separator, start)) {
        parts.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return parts;
}

std::vector<CompilerBenchRow> failedRows(const std::string& workload,
                                         const std::vector<std::string>& modes,
                                         const std::string& error) {
    std::vector<CompilerBenchRow> rows;
    for (const std::string& mode : modes) {
        CompilerBenchRow row{workload, mode};
        row.error = error;
        rows.push_back(row);
    }
    return rows;
}

/// The rows as the child sends them.
std::string encodeRows(const std::vector<CompilerBenchRow>& rows) {
    std::string out;
    for (const CompilerBenchRow& r : rows) {
        for (const std::string& field :
             {clean(r.workload), clean(r.mode), number(r.compileMs), number(r.firstCallMs),
              number(r.medianMs), number(r.minMs), number(r.p90Ms), std::to_string(r.kernels),
              number(r.ratioToEager), number(r.maxRelativeError), number(r.warmCompileMs),
              number(r.gpuKernelMsPerCall), clean(r.error)})
            out += field + kFieldEnd;
        out += kRowEnd;
    }
    return out;
}

bool decodeRows(const std::string& bytes, std::vector<CompilerBenchRow>& rows) {
    for (const std::string& line : split(bytes, kRowEnd)) {
        std::vector<std::string> f = split(line, kFieldEnd);
        if (f.size() != kFieldCount) return false;
        CompilerBenchRow r{f[0], f[1]};
        double kernels = 0;
        if (!parseNumber(f[2], r.compileMs) || !parseNumber(f[3], r.firstCallMs) ||
            !parseNumber(f[4], r.medianMs) || !parseNumber(f[5], r.minMs) ||
            !parseNumber(f[6], r.p90Ms) || !parseNumber(f[7], kernels) ||
            !parseNumber(f[8], r.ratioToEager) || !parseNumber(f[9], r.maxRelativeError) ||
            !parseNumber(f[10], r.warmCompileMs) || !parseNumber(f[11], r.gpuKernelMsPerCall))
            return false;
        r.kernels = static_cast<int>(kernels);
        r.error = f[12];
        rows.push_back(std::move(r));
    }
    return true;
}

} // namespace

std::vector<CompilerBenchRow>
measureInChild(const std::string& workload, const std::vector<std::string>& modes,
               double timeoutSeconds,
               const std::function<std::vector<CompilerBenchRow>()>& measureRows) {
    std::fflush(stdout); // what is buffered now is printed once, not once more by the child
    std::fflush(stderr);
    const auto limit = std::chrono::milliseconds(static_cast<int64_t>(timeoutSeconds * 1000));
    ChildResult child = runInTimeLimitedChild(
        [&] {
            return ChildOutput{0, encodeRows(measureRows())};
        },
        limit);
    std::vector<CompilerBenchRow> rows;
    switch (child.end) {
    case ChildResult::End::Finished:
        if (child.code == 0 && decodeRows(child.bytes, rows)) return rows;
        return failedRows(workload, modes, "the measuring process sent no readable result");
    case ChildResult::End::TimedOut:
        return failedRows(workload, modes,
                          "timed out after " + number(timeoutSeconds) +
                              " s (kiln bench --timeout) and was stopped");
    case ChildResult::End::Crashed:
        return failedRows(workload, modes,
                          child.signal ? "crashed: killed by " + trace::signalName(child.signal)
                                       : std::string("crashed: the measuring process exited"));
    case ChildResult::End::CouldNotStart:
        break;
    }
    return failedRows(workload, modes, "could not start a measuring process: " + child.error);
}

} // namespace kiln::api
