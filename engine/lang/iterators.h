// SPDX-License-Identifier: MIT
/// \file
/// Iterator objects for the built-in iterables and the lazy builtins (enumerate, zip, map,
/// filter, reversed), plus the adapter for user classes that define __next__.
#pragma once

#include "lang/objects.h"

namespace kiln::lang {

/// Iterates a fixed vector of values (lists are iterated by index so that appends are seen).
class SequenceIterator final : public IteratorObject {
public:
    explicit SequenceIterator(Value sequence);
    bool next(Interpreter& interp, Value& out) override;

private:
    Value m_sequence;
    size_t m_index = 0;
};

/// reversed(list): indexes the live list from its end, as CPython's list_reverseiterator, so a
/// list that shrinks meanwhile ends the iteration (or repeats items) the way it does there.
class ListReverseIterator final : public IteratorObject {
public:
    explicit ListReverseIterator(Value list);
    bool next(Interpreter& interp, Value& out) override;

private:
    Value m_list;
    int64_t m_index;
};

class RangeIterator final : public IteratorObject {
public:
    /// `count` values from `first` by `step` (range(a, b, s): first a, count its length).
    RangeIterator(int64_t first, int64_t step, uint64_t count);
    bool next(Interpreter& interp, Value& out) override;

private:
    int64_t m_first, m_step;
    uint64_t m_count, m_index = 0;
};

class StrIterator final : public IteratorObject {
public:
    explicit StrIterator(Ref<StrObject> s);
    bool next(Interpreter& interp, Value& out) override;

private:
    Ref<StrObject> m_str;
    size_t m_pos = 0;
};

/// Over a tensor's first dimension (each item a view).
class TensorIterator final : public IteratorObject {
public:
    explicit TensorIterator(tensor::Tensor t);
    bool next(Interpreter& interp, Value& out) override;

private:
    tensor::Tensor m_tensor;
    int64_t m_index = 0;
};

class EnumerateIterator final : public IteratorObject {
public:
    EnumerateIterator(Value inner, int64_t start);
    bool next(Interpreter& interp, Value& out) override;

private:
    Value m_inner;
    int64_t m_count;
};

class ZipIterator final : public IteratorObject {
public:
    ZipIterator(std::vector<Value> inners, bool strict);
    bool next(Interpreter& interp, Value& out) override;

private:
    std::vector<Value> m_inners;
    bool m_strict;
};

class MapIterator final : public IteratorObject {
public:
    MapIterator(Value function, std::vector<Value> inners);
    bool next(Interpreter& interp, Value& out) override;

private:
    Value m_function;
    std::vector<Value> m_inners;
};

class FilterIterator final : public IteratorObject {
public:
    FilterIterator(Value predicate, Value inner);
    bool next(Interpreter& interp, Value& out) override;

private:
    Value m_predicate;
    Value m_inner;
};

/// Over a dict's keys, values or items; like CPython it fails if the dict changes size.
class DictIterator final : public IteratorObject {
public:
    DictIterator(Ref<DictObject> dict, DictViewObject::Part part);
    bool next(Interpreter& interp, Value& out) override;

private:
    Ref<DictObject> m_dict;
    DictViewObject::Part m_part;
    size_t m_size;
    size_t m_slot = 0;
};

/// Calls __next__ on a user object until it raises StopIteration.
class UserIterator final : public IteratorObject {
public:
    explicit UserIterator(Value object);
    bool next(Interpreter& interp, Value& out) override;

private:
    Value m_object;
};

} // namespace kiln::lang
