// SPDX-License-Identifier: MIT
/// \file
/// DimVector: sizes and strides. Almost every tensor has at most six dimensions, so those live
/// inline and a tensor op allocates nothing for its metadata.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <span>

namespace kiln::tensor {

class DimVector {
public:
    static constexpr uint32_t kInline = 6;

    DimVector() = default;
    explicit DimVector(size_t count, int64_t value = 0) { assign(count, value); }
    DimVector(std::initializer_list<int64_t> values) { assign(values.begin(), values.size()); }
    DimVector(std::span<const int64_t> values) { assign(values.data(), values.size()); }
    DimVector(const DimVector& other) { assign(other.data(), other.size()); }
    DimVector(DimVector&& other) noexcept { moveFrom(other); }
    DimVector& operator=(const DimVector& other) {
        if (this != &other) assign(other.data(), other.size());
        return *this;
    }
    DimVector& operator=(DimVector&& other) noexcept {
        if (this != &other) {
            release();
            moveFrom(other);
        }
        return *this;
    }
    ~DimVector() { release(); }

    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    int64_t* data() { return m_data; }
    const int64_t* data() const { return m_data; }
    int64_t* begin() { return m_data; }
    int64_t* end() { return m_data + m_size; }
    const int64_t* begin() const { return m_data; }
    const int64_t* end() const { return m_data + m_size; }
    int64_t& operator[](size_t i) { return m_data[i]; }
    int64_t operator[](size_t i) const { return m_data[i]; }
    int64_t& back() { return m_data[m_size - 1]; }
    int64_t back() const { return m_data[m_size - 1]; }
    operator std::span<const int64_t>() const { return {m_data, m_size}; }

    void push_back(int64_t value) {
        reserve(m_size + 1);
        m_data[m_size++] = value;
    }
    void pop_back() { --m_size; }
    void insert(size_t pos, int64_t value) {
        reserve(m_size + 1);
        std::memmove(m_data + pos + 1, m_data + pos, (m_size - pos) * sizeof(int64_t));
        m_data[pos] = value;
        ++m_size;
    }
    void erase(size_t pos) {
        std::memmove(m_data + pos, m_data + pos + 1, (m_size - pos - 1) * sizeof(int64_t));
        --m_size;
    }
    void resize(size_t count, int64_t value = 0) {
        reserve(count);
        for (size_t i = m_size; i < count; ++i)
            m_data[i] = value;
        m_size = static_cast<uint32_t>(count);
    }
    void clear() { m_size = 0; }

    friend bool operator==(const DimVector& a, const DimVector& b) {
        return a.m_size == b.m_size && std::equal(a.begin(), a.end(), b.begin());
    }

private:
    void reserve(size_t count) {
        if (count <= m_capacity) return;
        size_t capacity = std::max<size_t>(count, m_capacity * 2);
        auto* heap = static_cast<int64_t*>(std::malloc(capacity * sizeof(int64_t)));
        if (m_size) std::memcpy(heap, m_data, m_size * sizeof(int64_t));
        release();
        m_data = heap;
        m_capacity = static_cast<uint32_t>(capacity);
    }
    void assign(const int64_t* values, size_t count) {
        m_size = 0;
        reserve(count);
        // A 0-D tensor's sizes are an empty span whose data may be null: memcpy of null is
        // undefined even for 0 bytes (UBSan).
        if (count) std::memcpy(m_data, values, count * sizeof(int64_t));
        m_size = static_cast<uint32_t>(count);
    }
    void assign(size_t count, int64_t value) {
        m_size = 0;
        resize(count, value);
    }
    void release() {
        if (m_data != m_inline) std::free(m_data);
        m_data = m_inline;
        m_capacity = kInline;
    }
    void moveFrom(DimVector& other) {
        if (other.m_data == other.m_inline) {
            std::memcpy(m_inline, other.m_inline, other.m_size * sizeof(int64_t));
            m_data = m_inline;
            m_capacity = kInline;
        } else {
            m_data = other.m_data;
            m_capacity = other.m_capacity;
            other.m_data = other.m_inline;
            other.m_capacity = kInline;
        }
        m_size = other.m_size;
        other.m_size = 0;
    }

    int64_t* m_data = m_inline;
    uint32_t m_size = 0;
    uint32_t m_capacity = kInline;
    int64_t m_inline[kInline];
};

using IntList = std::span<const int64_t>;

} // namespace kiln::tensor
