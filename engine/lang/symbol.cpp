// SPDX-License-Identifier: MIT
#include "lang/symbol.h"

#include <deque>
#include <mutex>
#include <unordered_map>

namespace kiln::lang {

namespace {

struct SymbolTable {
    std::mutex mutex;
    std::deque<std::string> names{std::string()}; // id 0 is the invalid symbol
    std::unordered_map<std::string_view, uint32_t> ids;
};

SymbolTable& table() {
    static SymbolTable t;
    return t;
}

} // namespace

Symbol Symbol::intern(std::string_view name) {
    SymbolTable& t = table();
    std::lock_guard lock(t.mutex);
    auto it = t.ids.find(name);
    if (it != t.ids.end()) return Symbol(it->second);
    t.names.emplace_back(name);
    uint32_t id = static_cast<uint32_t>(t.names.size() - 1);
    t.ids.emplace(t.names.back(), id);
    return Symbol(id);
}

const std::string& Symbol::str() const {
    SymbolTable& t = table();
    std::lock_guard lock(t.mutex);
    return t.names[m_id];
}

} // namespace kiln::lang
