// SPDX-License-Identifier: MIT
/// \file
/// Interned identifiers. Every name in a script (variables, attributes, keywords) becomes a
/// Symbol once at parse time, so attribute and keyword lookups compare integers, not strings.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kiln::lang {

class Symbol {
public:
    Symbol() = default;
    static Symbol intern(std::string_view name);

    uint32_t id() const { return m_id; }
    bool valid() const { return m_id != 0; }
    const std::string& str() const;
    friend bool operator==(Symbol a, Symbol b) { return a.m_id == b.m_id; }
    friend bool operator<(Symbol a, Symbol b) { return a.m_id < b.m_id; }

private:
    explicit Symbol(uint32_t id)
        : m_id(id) {}
    uint32_t m_id = 0;
};

struct SymbolHash {
    size_t operator()(Symbol s) const { return s.id() * 0x9E3779B97F4A7C15ull >> 20; }
};

} // namespace kiln::lang
