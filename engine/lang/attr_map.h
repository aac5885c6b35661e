// SPDX-License-Identifier: MIT
/// \file
/// AttrMap: the namespace of a module, class or instance, keyed by Symbol and kept in insertion
/// order (Python prints and iterates `__dict__` in that order). Small maps are scanned
/// linearly; past a few entries an index makes lookups constant time.
#pragma once

#include "lang/symbol.h"
#include "lang/value.h"

#include <unordered_map>
#include <vector>

namespace kiln::lang {

class AttrMap {
public:
    struct Entry {
        Symbol key;
        Value value;
    };

    /// Pointer to the value, or null when absent.
    Value* find(Symbol key) {
        int32_t i = indexOf(key);
        return i < 0 ? nullptr : &m_entries[static_cast<size_t>(i)].value;
    }
    const Value* find(Symbol key) const { return const_cast<AttrMap*>(this)->find(key); }
    bool contains(Symbol key) const { return indexOf(key) >= 0; }

    void set(Symbol key, Value value) {
        int32_t i = indexOf(key);
        if (i >= 0) {
            m_entries[static_cast<size_t>(i)].value = std::move(value);
            return;
        }
        m_entries.push_back({key, std::move(value)});
        if (!m_index.empty())
            m_index[key.id()] = static_cast<int32_t>(m_entries.size() - 1);
        else if (m_entries.size() > kLinearLimit)
            rebuildIndexIfNeeded();
    }
    bool erase(Symbol key) {
        int32_t i = indexOf(key);
        if (i < 0) return false;
        m_entries.erase(m_entries.begin() + i);
        m_index.clear();
        if (m_entries.size() > kLinearLimit) rebuildIndexIfNeeded();
        return true;
    }

    const std::vector<Entry>& entries() const { return m_entries; }
    size_t size() const { return m_entries.size(); }

private:
    static constexpr size_t kLinearLimit = 8;

    int32_t indexOf(Symbol key) const {
        if (m_index.empty()) {
            for (size_t i = 0; i < m_entries.size(); ++i)
                if (m_entries[i].key == key) return static_cast<int32_t>(i);
            return -1;
        }
        auto it = m_index.find(key.id());
        return it == m_index.end() ? -1 : it->second;
    }
    void rebuildIndexIfNeeded() {
        if (m_index.size() == m_entries.size()) return;
        m_index.clear();
        for (size_t i = 0; i < m_entries.size(); ++i)
            m_index[m_entries[i].key.id()] = static_cast<int32_t>(i);
    }

    std::vector<Entry> m_entries;
    std::unordered_map<uint32_t, int32_t> m_index;
};

} // namespace kiln::lang
