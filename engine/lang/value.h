// SPDX-License-Identifier: MIT
/// \file
/// Value: one Python value as the interpreter holds it. None, bool, int (64-bit) and float are
/// stored inline; tensors hold their TensorImpl directly (no wrapper object, so an eager op
/// allocates only the tensor); everything else is a reference-counted Object.
#pragma once

#include "support/ref_counted.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <utility>

namespace kiln::lang {

class TypeObject;

/// The C++ class of an Object, for fast checks without dynamic_cast.
enum class ObjectKind : uint8_t {
    Str,
    List,
    Tuple,
    Dict,
    Function,
    NativeFunction,
    BoundMethod,
    Cell,
    Type,
    Instance,
    Module,
    Range,
    Slice,
    Iterator,
    Property,
    StaticMethod,
    ClassMethod,
    Super,
    DictView,
    Native
};

class Object : public RefCounted {
public:
    Object(ObjectKind kind, TypeObject* type)
        : m_type(type)
        , m_kind(kind) {}

    ObjectKind kind() const { return m_kind; }
    TypeObject* type() const { return m_type; }
    void setType(TypeObject* type) { m_type = type; }

private:
    TypeObject* m_type;
    ObjectKind m_kind;
};

class Value {
public:
    enum class Tag : uint8_t { Empty, None, Bool, Int, Float, Object, Tensor };

    Value()
        : m_tag(Tag::Empty)
        , m_int(0) {}
    static Value none() {
        Value v;
        v.m_tag = Tag::None;
        return v;
    }
    static Value fromBool(bool b) {
        Value v;
        v.m_tag = Tag::Bool;
        v.m_int = b;
        return v;
    }
    static Value fromInt(int64_t i) {
        Value v;
        v.m_tag = Tag::Int;
        v.m_int = i;
        return v;
    }
    static Value fromFloat(double f) {
        Value v;
        v.m_tag = Tag::Float;
        v.m_float = f;
        return v;
    }
    Value(Object* object)
        : m_tag(Tag::Object)
        , m_object(object) {
        object->retain();
    }
    template <typename T>
    Value(const Ref<T>& object)
        : Value(static_cast<Object*>(object.get())) {}
    explicit Value(const tensor::Tensor& t)
        : m_tag(Tag::Tensor)
        , m_tensor(t.impl()) {
        m_tensor->retain();
    }

    Value(const Value& other)
        : m_tag(other.m_tag)
        , m_int(other.m_int) {
        retain();
    }
    Value(Value&& other) noexcept
        : m_tag(other.m_tag)
        , m_int(other.m_int) {
        other.m_tag = Tag::Empty;
    }
    Value& operator=(const Value& other) {
        if (this != &other) {
            other.retain();
            release();
            m_tag = other.m_tag;
            m_int = other.m_int;
        }
        return *this;
    }
    Value& operator=(Value&& other) noexcept {
        if (this != &other) {
            release();
            m_tag = other.m_tag;
            m_int = other.m_int;
            other.m_tag = Tag::Empty;
        }
        return *this;
    }
    ~Value() { release(); }

    Tag tag() const { return m_tag; }
    bool isEmpty() const { return m_tag == Tag::Empty; }
    bool isNone() const { return m_tag == Tag::None; }
    bool isBool() const { return m_tag == Tag::Bool; }
    bool isInt() const { return m_tag == Tag::Int; }
    bool isFloat() const { return m_tag == Tag::Float; }
    bool isObject() const { return m_tag == Tag::Object; }
    bool isTensor() const { return m_tag == Tag::Tensor; }
    /// int or bool (bool is a subclass of int in Python)
    bool isIntLike() const { return m_tag == Tag::Int || m_tag == Tag::Bool; }
    bool isNumber() const { return m_tag == Tag::Int || m_tag == Tag::Bool || m_tag == Tag::Float; }
    bool is(ObjectKind k) const { return m_tag == Tag::Object && m_object->kind() == k; }

    bool asBool() const { return m_int != 0; }
    int64_t asInt() const { return m_int; }
    double asFloat() const { return m_float; }
    /// int, bool or float as double
    double toDouble() const { return m_tag == Tag::Float ? m_float : static_cast<double>(m_int); }
    Object* asObject() const { return m_object; }
    template <typename T>
    T* as() const {
        return static_cast<T*>(m_object);
    }
    tensor::Tensor asTensor() const { return tensor::Tensor(Ref<tensor::TensorImpl>(m_tensor)); }
    tensor::TensorImpl* tensorImpl() const { return m_tensor; }

    /// Identity (Python `is`): same inline value or same object.
    bool identical(const Value& other) const {
        if (m_tag != other.m_tag) return false;
        if (m_tag == Tag::Float)
            return m_float == other.m_float ||
                   (m_float != m_float && other.m_float != other.m_float);
        return m_int == other.m_int || m_tag == Tag::None || m_tag == Tag::Empty;
    }

private:
    void retain() const {
        if (m_tag == Tag::Object)
            m_object->retain();
        else if (m_tag == Tag::Tensor)
            m_tensor->retain();
    }
    void release() {
        if (m_tag == Tag::Object)
            m_object->release();
        else if (m_tag == Tag::Tensor)
            m_tensor->release();
    }

    Tag m_tag;
    union {
        int64_t m_int;
        double m_float;
        Object* m_object;
        tensor::TensorImpl* m_tensor;
    };
};

} // namespace kiln::lang
