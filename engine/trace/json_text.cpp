// SPDX-License-Identifier: MIT
#include "trace/json_text.h"

namespace kiln::trace {

std::string jsonQuoted(std::string_view text) {
    static constexpr char kHexDigits[] = "0123456789abcdef";
    std::string json = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') {
            json += '\\';
            json += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            json += "\\u00";
            json += kHexDigits[(c >> 4) & 0xf];
            json += kHexDigits[c & 0xf];
        } else {
            json += c;
        }
    }
    return json + '"';
}

std::string jsonStringArray(const std::vector<std::string>& items) {
    std::string json = "[";
    for (const std::string& item : items) {
        if (json.size() > 1) json += ',';
        json += jsonQuoted(item);
    }
    return json + "]";
}

std::string jsonIntObject(const std::vector<std::pair<std::string, int64_t>>& pairs) {
    std::string json = "{";
    for (const auto& [name, value] : pairs) {
        if (json.size() > 1) json += ',';
        json += jsonQuoted(name);
        json += ':';
        json += std::to_string(value);
    }
    return json + "}";
}

} // namespace kiln::trace
