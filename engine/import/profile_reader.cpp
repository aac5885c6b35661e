// SPDX-License-Identifier: MIT
// Reading a torch.profiler Chrome trace: one streaming pass that keeps each complete event's
// matched fields (profile_import.h, readProfile).
#include "import/profile_import.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

namespace kiln::importer {
namespace {

using nlohmann::json;

Diagnostic importError(std::string message) {
    return makeDiagnostic("ImportError", std::move(message));
}

std::string lower(std::string text) {
    for (char& c : text)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

/// Times (µs) beyond this are not a profile's: their nanoseconds, offset by a base time, must
/// stay inside int64 (4e15 µs is about 127 years).
constexpr double kMaxMicroseconds = 4e15;

/// A JSON number as an int64, clamped into range (a cast of an out-of-range double is
/// undefined behaviour; NaN becomes 0).
int64_t toInt64(const json& value) {
    if (value.is_number_integer()) return value.get<int64_t>();
    double d = value.get<double>();
    if (!(d == d)) return 0;
    constexpr double kLimit = 9.2e18;
    return int64_t(std::clamp(d, -kLimit, kLimit));
}

std::string idText(const json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number()) return std::to_string(toInt64(value));
    return "";
}

int64_t intArg(const json& args, const char* key, int64_t fallback) {
    auto it = args.find(key);
    if (it == args.end()) return fallback;
    if (it->is_number()) return toInt64(*it);
    return fallback;
}

/// "[x, y, z]" as "(x, y, z)", the form kernel_launches keeps; empty when not three numbers.
std::string dims(const json& args, const char* key) {
    auto it = args.find(key);
    if (it == args.end() || !it->is_array() || it->size() != 3) return "";
    std::string text = "(";
    for (size_t i = 0; i < 3; ++i) {
        if (!(*it)[i].is_number()) return "";
        text += (i ? ", " : "") + std::to_string(toInt64((*it)[i]));
    }
    return text + ")";
}

/// One traceEvents entry into \p profile, when it is a usable complete event.
void takeEvent(const json& entry, Profile& profile) {
    ++profile.records;
    if (!entry.is_object()) {
        ++profile.skipped;
        return;
    }
    auto ph = entry.find("ph");
    if (ph == entry.end() || !ph->is_string()) {
        ++profile.skipped;
        return;
    }
    if (ph->get<std::string>() != "X") {
        ++profile.otherPhases;
        return;
    }
    auto name = entry.find("name");
    auto ts = entry.find("ts");
    auto dur = entry.find("dur");
    if (name == entry.end() || !name->is_string() || ts == entry.end() || !ts->is_number() ||
        dur == entry.end() || !dur->is_number() ||
        !(std::abs(ts->get<double>()) <= kMaxMicroseconds) ||
        !(dur->get<double>() >= 0 && dur->get<double>() <= kMaxMicroseconds)) {
        ++profile.skipped;
        return;
    }
    ProfileEvent event;
    event.index = profile.records;
    event.name = name->get<std::string>();
    if (auto cat = entry.find("cat"); cat != entry.end() && cat->is_string())
        event.cat = lower(cat->get<std::string>());
    if (auto pid = entry.find("pid"); pid != entry.end()) event.pid = idText(*pid);
    if (auto tid = entry.find("tid"); tid != entry.end()) event.tid = idText(*tid);
    event.tsUs = ts->get<double>();
    event.durUs = dur->get<double>();
    if (auto args = entry.find("args"); args != entry.end() && args->is_object()) {
        event.correlation = intArg(*args, "correlation", -1);
        event.device = intArg(*args, "device", -1);
        event.grid = dims(*args, "grid");
        event.block = dims(*args, "block");
        event.registers = int32_t(std::clamp<int64_t>(intArg(*args, "registers per thread", 0), 0,
                                                      std::numeric_limits<int32_t>::max()));
        event.sharedMemory = int32_t(std::clamp<int64_t>(intArg(*args, "shared memory", 0), 0,
                                                         std::numeric_limits<int32_t>::max()));
    }
    profile.events.push_back(std::move(event));
}

} // namespace

Expected<Profile> readProfile(const std::string& path, const ImportOptions& options) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return importError("cannot read '" + path + "': " + std::string(std::strerror(errno)));
    std::error_code sizeError;
    const auto size = std::filesystem::file_size(path, sizeError);
    return readProfile(in, path, sizeError ? 0 : int64_t(size), options);
}

Expected<Profile> readProfile(std::istream& in, const std::string& path, int64_t totalBytes,
                              const ImportOptions& options) {
    struct Cancelled {}; // thrown out of the parser's callback: it has no other way to stop
    int64_t reportedBytes = 0;
    auto report = [&](bool force) {
        if (!options.progress) return;
        // The stream's position without moving it (the parser reads the same buffer).
        auto at = in.rdbuf()->pubseekoff(0, std::ios::cur, std::ios::in);
        int64_t done = force ? totalBytes : at < 0 ? reportedBytes : int64_t(at);
        if (!force && done - reportedBytes < (256 << 10)) return;
        reportedBytes = done;
        if (!options.progress(done, totalBytes)) throw Cancelled{};
    };
    Profile profile;
    bool topIsObject = false, topIsArray = false, sawEvents = false;
    std::string topKey;
    // Each traceEvents entry is taken as soon as it is parsed and then dropped from the DOM
    // (the callback returns false), so memory holds the matched fields, not the JSON.
    json::parser_callback_t callback = [&](int depth, json::parse_event_t event, json& parsed) {
        if (depth == 0 && event == json::parse_event_t::object_start) topIsObject = true;
        if (depth == 0 && event == json::parse_event_t::array_start) topIsArray = true;
        if (topIsObject && depth == 1 && event == json::parse_event_t::key) {
            topKey = parsed.is_string() ? parsed.get<std::string>() : "";
            sawEvents |= topKey == "traceEvents";
        }
        bool entryEnd = event == json::parse_event_t::object_end ||
                        event == json::parse_event_t::array_end ||
                        event == json::parse_event_t::value;
        bool inEvents =
            (topIsObject && depth == 2 && topKey == "traceEvents") || (topIsArray && depth == 1);
        if (inEvents && entryEnd) {
            takeEvent(parsed, profile);
            if (profile.records % 256 == 0) report(false);
            return false;
        }
        // The profile's epoch (Unix ns); one past 2096 or before 1970 is damage, not a time.
        if (topIsObject && depth == 1 && event == json::parse_event_t::value &&
            topKey == "baseTimeNanoseconds" && parsed.is_number()) {
            int64_t base = toInt64(parsed);
            profile.baseTimeNs = base >= 0 && base <= int64_t(4e18) ? base : 0;
        }
        return true;
    };
    try {
        json document = json::parse(in, callback);
        if (!document.is_object() && !document.is_array())
            return importError("'" + path +
                               "' is not a Chrome trace (a JSON object with traceEvents)");
        report(true);
    } catch (const Cancelled&) {
        return makeDiagnostic(kImportCancelled, "the import of '" + path +
                                                    "' was cancelled while reading it: nothing "
                                                    "of it was written");
    } catch (const json::parse_error& e) {
        return importError("'" + path + "' is not a complete Chrome trace: JSON " +
                           std::string(e.what()).substr(std::string(e.what()).find("parse error")) +
                           " (byte " + std::to_string(e.byte) + ")");
    } catch (const json::exception& e) {
        return importError("'" + path + "' is not a Chrome trace: " + e.what());
    }
    if (topIsObject && !sawEvents)
        return importError("'" + path + "' has no traceEvents: not a torch.profiler Chrome trace");
    return profile;
}

} // namespace kiln::importer
