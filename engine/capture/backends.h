// SPDX-License-Identifier: MIT
/// \file
/// torch.compile backends: the built-in ones Kiln implements and the ones scripts register
/// (`register_backend`) or pass directly (`backend=my_fn`), with PyTorch's listing rules
/// (`list_backends()` leaves out those tagged "debug" or "experimental").
#pragma once

#include "lang/value.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::capture {

struct Backend {
    enum class Kind : uint8_t { Eager, AotEager, Inductor, CudaGraphs, Custom };
    Kind kind = Kind::Inductor;
    std::string name = "inductor";
    lang::Value callable; ///< Custom: backend(gm, example_inputs) -> callable
};

class BackendRegistry {
public:
    BackendRegistry();

    std::optional<Backend> find(const std::string& name) const;
    /// register_backend: false when the name is taken (PyTorch asserts "duplicate name: x").
    bool add(const std::string& name, lang::Value compilerFn, std::vector<std::string> tags);
    /// Sorted names whose tags avoid `excludeTags`; every name when `all`.
    std::vector<std::string> list(const std::vector<std::string>& excludeTags, bool all) const;

private:
    struct Entry {
        Backend backend;
        std::vector<std::string> tags;
    };
    std::vector<Entry> m_entries;
};

} // namespace kiln::capture
