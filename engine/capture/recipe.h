// SPDX-License-Identifier: MIT
/// \file
/// Recipes rebuild the Python values a compiled frame hands back (its return value, or at a
/// graph break its locals and the already-evaluated parts of the breaking statement) from the
/// compiled graph's outputs on each later call: a tensor is graph output i, an input found
/// through its source, or a constant; tuples, lists and dicts made by the frame are rebuilt.
#pragma once

#include "capture/source.h"

#include <optional>
#include <vector>

namespace kiln::capture {

class Tracer;

struct Recipe {
    enum class Kind : uint8_t { Empty, Output, FromSource, Constant, Tuple, List, Dict, Cell };
    Kind kind = Kind::Empty;
    int32_t output = 0;            ///< Output: index into the graph's outputs
    SourcePtr source;              ///< FromSource
    lang::Value constant;          ///< Constant; Tuple: its type object when a tuple subclass
    std::vector<Recipe> items;     ///< Tuple, List, Dict values, Cell content
    std::vector<lang::Value> keys; ///< Dict keys
};

/// Builds recipes against a finished trace. `outputOf` maps a graph node to its position in
/// the output tuple (-1 when it is not an output).
class RecipeBuilder {
public:
    /// `outputNodes` are the graph's outputs so far; SymInts the values hold are added to it.
    RecipeBuilder(lang::Interpreter& interp, Tracer& tracer, std::vector<int32_t>& outputNodes);
    /// nullopt when the value cannot be rebuilt (an object the frame created, a closure).
    std::optional<Recipe> build(const lang::Value& v, int depth = 0);
    /// Why the last build() failed.
    const std::string& failure() const { return m_failure; }

private:
    lang::Interpreter& m_interp;
    Tracer& m_tracer;
    std::vector<int32_t>& m_outputNodes;
    std::string m_failure;
};

/// The value a recipe describes, for a call whose graph produced `outputs` and whose frame
/// inputs are `slots` (and globals).
lang::Value materialise(lang::Interpreter& interp, const Recipe& recipe,
                        const std::vector<lang::Value>& outputs,
                        const std::vector<lang::Value>& slots, lang::ModuleObject& globals);

} // namespace kiln::capture
