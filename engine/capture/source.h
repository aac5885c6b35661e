// SPDX-License-Identifier: MIT
/// \file
/// Sources: where a value of a traced frame came from, written the way Dynamo writes them
/// (`L['x']`, `G['SCALE']`, `L['self'].fc.weight`, `L['xs'][0]`). Guards check values found
/// through their sources, and a cached graph finds its inputs again through them on later
/// calls.
#pragma once

#include "lang/interpreter.h"

#include <memory>
#include <string>
#include <vector>

namespace kiln::capture {

class Source;
using SourcePtr = std::shared_ptr<const Source>;

class Source {
public:
    enum class Kind : uint8_t { Local, Global, Attribute, Item, Size };

    static SourcePtr local(int32_t slot, std::string name);
    static SourcePtr global(lang::Symbol name);
    static SourcePtr attribute(SourcePtr base, lang::Symbol name);
    static SourcePtr item(SourcePtr base, lang::Value key);
    /// A tensor's size at `dim`: a dynamic graph's size symbol as a graph input (`s0`), which
    /// PyTorch 2.3 passes before the tensor it belongs to. Spelled `L['x'].size()[0]`.
    static SourcePtr size(SourcePtr tensor, int64_t dim);

    Kind kind() const { return m_kind; }
    /// Dynamo's spelling: L['x'], G['W'], L['self'].fc, L['xs'][0].
    std::string str() const;
    /// The spelling PyTorch 2.11 uses in messages: x, W, self.fc, xs[0].
    std::string shortStr() const;
    /// A name usable in generated code: L_x_, G_W_, L_self_fc_ (placeholders are named so).
    std::string identifier() const;
    /// The attribute name Dynamo registers a module's submodule or parameter under in the
    /// GraphModule: str() with every non-identifier character replaced by '_'
    /// (L['self'].fc1 -> L__self___fc1).
    std::string moduleAttributeName() const;

    /// The value at this source for a frame whose slots and globals are given. Empty when the
    /// source no longer resolves (an attribute was deleted, an index went out of range).
    lang::Value fetch(lang::Interpreter& interp, const std::vector<lang::Value>& slots,
                      lang::ModuleObject& globals) const;

    int32_t slot() const { return m_slot; }
    /// The local or global the source starts from, as "L:x" or "G:x".
    std::string rootName() const;
    /// What an attribute or item is read from; null for locals and globals.
    const SourcePtr& base() const { return m_base; }

private:
    Kind m_kind = Kind::Local;
    int32_t m_slot = -1;
    std::string m_localName;
    lang::Symbol m_name;
    lang::Value m_key;
    SourcePtr m_base;
    int64_t m_dim = 0; ///< Size
    /// An item of an nn.Module's _modules/_parameters/_buffers table: named as the attribute
    /// the user wrote (L['self'].fc, not L['self']._modules['fc']), fetched from the table.
    SourcePtr m_named;
};

} // namespace kiln::capture
