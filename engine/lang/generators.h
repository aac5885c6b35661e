// SPDX-License-Identifier: MIT
/// \file
/// Generators: calling a function whose body has a `yield` binds its arguments into a frame of
/// its own and returns a generator (a generator expression makes one over its comprehension); each
/// next()/send() runs that frame on a coroutine (lang/coroutine.h) until its next `yield` or its
/// end. The frame's slots and the coroutine live in a GeneratorBody the generator owns, so that a
/// generator dropped while suspended can hand its body to the interpreter, which closes it
/// (GeneratorExit at the `yield`, so its `finally` blocks run) at the next statement boundary
/// rather than inside a destructor.
#pragma once

#include "lang/coroutine.h"
#include "lang/interpreter.h"

#include <exception>
#include <memory>
#include <optional>

namespace kiln::lang {

struct GeneratorBody {
    enum class State : uint8_t { Created, Suspended, Running, Done };

    explicit GeneratorBody(Interpreter& owner);
    ~GeneratorBody();
    GeneratorBody(const GeneratorBody&) = delete;
    GeneratorBody& operator=(const GeneratorBody&) = delete;

    Interpreter* interp = nullptr;      ///< null once the interpreter is gone
    uint64_t serial = 0;                ///< the interpreter's count of generators made so far
    const FunctionCode* code = nullptr; ///< the generator function's, or the expression's
    // What the frame points at, held for as long as the generator lives.
    Ref<FunctionObject> function; ///< null for a generator expression at module level
    Ref<ModuleObject> globals;
    std::vector<Ref<CellObject>> closure; ///< a generator expression's own
    std::vector<Value> slots;
    Frame frame;
    std::unique_ptr<Coroutine> coroutine;
    State state = State::Created;
    Value transfer;                    ///< the value yielded out, or sent in
    std::optional<PyException> thrown; ///< raised at the `yield` when resumed (throw, close)
    std::exception_ptr error;          ///< what the body raised: re-raised in the resumer
    Value returned;                    ///< the body's return value once Done
    // What the resumer's side of the interpreter state holds for the body while it is
    // suspended: the exceptions it is handling and its call depth.
    std::vector<Value> handled;
    int depth = 0;
};

class GeneratorObject final : public IteratorObject {
public:
    explicit GeneratorObject(std::unique_ptr<GeneratorBody> body);
    ~GeneratorObject() override;
    bool next(Interpreter& interp, Value& out) override;

    GeneratorBody& body() { return *m_body; }
    /// "f" or "Outer.method.<locals>.f", for reprs and messages.
    const std::string& qualifiedName() const;

private:
    std::unique_ptr<GeneratorBody> m_body;
};

/// The generator type's methods: send, throw, close, __next__, __iter__, __repr__.
void installGeneratorMethods(Interpreter& interp);

} // namespace kiln::lang
