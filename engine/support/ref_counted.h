// SPDX-License-Identifier: MIT
/// \file
/// Intrusive reference counting. Ref<T> owns one count of a T that derives from RefCounted
/// (single-threaded: interpreter objects) or AtomicRefCounted (shared with worker threads:
/// tensors and storages). Intrusive counts keep a value one pointer wide and make handing an
/// object to the interpreter free of extra allocations.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace kiln {

class RefCounted {
public:
    RefCounted() = default;
    RefCounted(const RefCounted&) = delete;
    RefCounted& operator=(const RefCounted&) = delete;
    virtual ~RefCounted() = default;

    void retain() const { ++m_refs; }
    void release() const {
        if (--m_refs == 0) delete this;
    }
    int32_t refCount() const { return m_refs; }

private:
    mutable int32_t m_refs = 0;
};

class AtomicRefCounted {
public:
    AtomicRefCounted() = default;
    AtomicRefCounted(const AtomicRefCounted&) = delete;
    AtomicRefCounted& operator=(const AtomicRefCounted&) = delete;
    virtual ~AtomicRefCounted() = default;

    void retain() const { m_refs.fetch_add(1, std::memory_order_relaxed); }
    void release() const {
        if (m_refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
    }
    int32_t refCount() const { return m_refs.load(std::memory_order_relaxed); }

private:
    mutable std::atomic<int32_t> m_refs{0};
};

template <typename T>
class Ref {
public:
    Ref() = default;
    Ref(std::nullptr_t) {}
    Ref(T* ptr)
        : m_ptr(ptr) {
        if (m_ptr) m_ptr->retain();
    }
    Ref(const Ref& other)
        : Ref(other.m_ptr) {}
    Ref(Ref&& other) noexcept
        : m_ptr(std::exchange(other.m_ptr, nullptr)) {}
    template <typename U>
    Ref(const Ref<U>& other)
        : Ref(static_cast<T*>(other.get())) {}
    Ref& operator=(Ref other) noexcept {
        std::swap(m_ptr, other.m_ptr);
        return *this;
    }
    ~Ref() {
        if (m_ptr) m_ptr->release();
    }

    T* get() const { return m_ptr; }
    T* operator->() const { return m_ptr; }
    T& operator*() const { return *m_ptr; }
    explicit operator bool() const { return m_ptr != nullptr; }
    friend bool operator==(const Ref& a, const Ref& b) { return a.m_ptr == b.m_ptr; }

    /// Gives up ownership without releasing; the caller takes over the count.
    T* leak() { return std::exchange(m_ptr, nullptr); }
    /// Adopts a pointer whose count the caller already holds.
    static Ref adopt(T* ptr) {
        Ref r;
        r.m_ptr = ptr;
        return r;
    }

private:
    T* m_ptr = nullptr;
};

template <typename T, typename... Args>
Ref<T> makeRef(Args&&... args) {
    return Ref<T>(new T(std::forward<Args>(args)...));
}

} // namespace kiln
