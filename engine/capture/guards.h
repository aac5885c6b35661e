// SPDX-License-Identifier: MIT
/// \file
/// Guards: the checks a cache entry makes before its graph may run again. Each guard looks at
/// the value at one source and checks what the trace relied on: a tensor's type, dtype, device,
/// requires_grad, rank, sizes and strides (TENSOR_MATCH); a constant's value (EQUALS_MATCH);
/// an object's identity (ID_MATCH: modules, functions, bool, None); a container's length
/// (LENGTH_CHECK); the range of a dynamic size (`2 <= x.size()[0]`). A GuardSet is a flat list
/// checked in order; the first failing guard is the recompile reason, worded as PyTorch words
/// it.
#pragma once

#include "capture/source.h"
#include "capture/sym_expr.h"
#include "tensor/tensor.h"

#include <string>
#include <vector>

namespace kiln::capture {

struct GuardOrigin {
    std::string file;
    int32_t line = 0;
    std::string function;
    std::string code; ///< the user line that made the guard
};

/// The backend of the torch.compile whose call is running, as an id: equal for equal backends
/// (the same name, the same custom callable, inductor with the same mode, options and dynamic),
/// distinct otherwise, stable for the process (like Python's id() of Dynamo's backend object).
/// 0 outside any compiled call. Set by CaptureEngine::callCompiled.
int64_t currentBackendId();
void setCurrentBackendId(int64_t id);
/// The id of a backend described by `key` (see CompileSpec::backendKey). A custom backend's
/// callable (`keepAlive`) is kept for the process, as Dynamo's cached_backends keeps it, so that
/// no later backend can take its address and with it the key of its cache entries.
int64_t backendIdOf(const std::string& key, const lang::Value& keepAlive);

class Guard {
public:
    enum class Kind : uint8_t {
        TensorMatch,
        EqualsMatch,
        IdMatch,
        TypeMatch,
        LengthCheck,
        DimAtLeast,
        SameObject,
        GlobalState,
        SymCompare,
        DimEquals,
        BackendMatch
    };

    static Guard tensorMatch(SourcePtr source, const tensor::Tensor& t,
                             const std::vector<bool>& dynamicDims);
    static Guard equalsMatch(SourcePtr source, lang::Value expected);
    static Guard idMatch(SourcePtr source, lang::Value object);
    static Guard typeMatch(SourcePtr source, lang::TypeObject* type);
    static Guard lengthCheck(SourcePtr source, int64_t length);
    /// `<source> is <other>`: two inputs that were one tensor when traced (DUPLICATE_INPUT).
    static Guard sameObject(SourcePtr source, SourcePtr other);
    /// The global state the graph was traced in (grad mode), as Dynamo's GLOBAL_STATE guard.
    static Guard globalState(bool gradMode);
    /// `___check_current_backend(id)`: the entry was compiled for the backend the calling
    /// torch.compile uses (see currentBackendId), as Dynamo's BACKEND_MATCH guard: the same
    /// function compiled for another backend, or for inductor with another mode or options,
    /// compiles again.
    static Guard backendMatch(int64_t backendId);
    /// `<expr> <op> rhs` had the value `result` when traced (a comparison on a SymInt).
    static Guard symCompare(SymExprPtr expr, lang::CompareOperator op, int64_t rhs, bool result);
    /// `minimum <= <source>.size()[dim]` for a dynamic dimension (0/1 stay specialised); with
    /// dim -1, `minimum <= <source>` for a dynamic int input.
    static Guard dimAtLeast(SourcePtr source, int64_t dim, int64_t minimum, std::string symbol);
    /// `<source>.size()[dim] == <other>.size()[otherDim]`: duck sizing gave both one symbol
    /// because they were equal when traced.
    static Guard dimEquals(SourcePtr source, int64_t dim, SourcePtr other, int64_t otherDim,
                           std::string symbol);

    Kind kind() const { return m_kind; }
    const SourcePtr& source() const { return m_source; }
    /// DimAtLeast and DimEquals: the symbol it bounds or ties ("s0").
    const std::string& symbol() const { return m_symbol; }
    GuardOrigin origin;
    /// The nn.Module objects whose attributes lead to what the guard checks (`L['self'].sub.k`:
    /// self and self.sub; a module's own ID_MATCH and training guard: the modules above it).
    /// Identities only, set while tracing: the tracer decides from them whether the guard is
    /// installed (guard_nn_modules) and then clears them.
    std::vector<const void*> readThroughModules;

    /// Fetches what the guard looks at from a frame's slots and globals and checks it.
    bool passes(lang::Interpreter& interp, const std::vector<lang::Value>& slots,
                lang::ModuleObject& globals) const;
    bool check(lang::Interpreter& interp, const lang::Value& v) const;
    /// Why `v` fails this guard, in PyTorch's words ("tensor 'x' size mismatch at index 0.
    /// expected 8, actual 16", "n == 3"); call only when check() is false.
    std::string failure(lang::Interpreter& interp, const lang::Value& v) const;
    /// The guard as a guard dump shows it ("n == 3", "len(xs) == 2", "check_tensor(x, ...)").
    std::string expression(lang::Interpreter& interp) const;
    const char* kindName() const;
    /// The expected value, readable ("3", "[8, 16]", "torch.float32").
    std::string expectedText(lang::Interpreter& interp) const;
    /// The actual value, readable, for a failing value.
    std::string actualText(lang::Interpreter& interp, const lang::Value& v) const;

private:
    bool checkTensor(const lang::Value& v) const;
    std::string tensorFailure(const lang::Value& v) const;

    Kind m_kind = Kind::EqualsMatch;
    SourcePtr m_source;
    lang::Value m_expected; ///< EqualsMatch value, IdMatch object
    lang::TypeObject* m_type = nullptr;
    int64_t m_length = 0;  ///< LengthCheck length, DimAtLeast and DimEquals dim
    int64_t m_minimum = 0; ///< DimAtLeast; DimEquals: the other source's dim
    std::string m_symbol;  ///< DimAtLeast and DimEquals: "s0"
    SourcePtr m_other;     ///< SameObject, DimEquals
    SymExprPtr m_expr;     ///< SymCompare
    lang::CompareOperator m_compare = lang::CompareOperator::Eq;
    // TensorMatch
    bool m_parameter = false;
    tensor::DType m_dtype = tensor::DType::Float32;
    bool m_requiresGrad = false;
    std::vector<int64_t> m_sizes; ///< -1: dynamic
    /// A stride to match exactly, or kAnyStride (unchecked), or kDenseStride: with dynamic sizes
    /// a stride that was the next inner dim's stride times its size (in the traced layout's
    /// order) must stay that product, as Dynamo's symbolic strides do (a contiguous, a
    /// transposed and a sliced `[:, ::2]` input are three layouts, three entries).
    std::vector<int64_t> m_strides;
    std::vector<int32_t> m_denseOn; ///< per kDenseStride dim: the next inner dim
    static constexpr int64_t kAnyStride = -1, kDenseStride = -2;
    /// The stride dim `d` of `t` must have, or nullopt when any will do.
    std::optional<int64_t> expectedStride(const tensor::TensorImpl* t, size_t d) const;
};

/// The guards of one cache entry, checked in order against a frame's slots and globals.
class GuardSet {
public:
    std::vector<Guard> guards;

    /// Index of the first failing guard, or -1 when all pass.
    int32_t firstFailure(lang::Interpreter& interp, const std::vector<lang::Value>& slots,
                         lang::ModuleObject& globals) const;
    /// Indices of every failing guard (recompiles_verbose).
    std::vector<int32_t> allFailures(lang::Interpreter& interp,
                                     const std::vector<lang::Value>& slots,
                                     lang::ModuleObject& globals) const;
};

} // namespace kiln::capture
