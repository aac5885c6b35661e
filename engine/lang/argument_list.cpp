// SPDX-License-Identifier: MIT
#include "lang/argument_list.h"

#include <algorithm>

namespace kiln::lang {

void evaluateArguments(Interpreter& interp, const std::vector<Argument>& args,
                       const std::function<Value(const Expr&)>& evaluate,
                       const std::function<void()>& mark, const ArgumentMessages& messages,
                       std::vector<Value>& positional, std::vector<Symbol>& names,
                       std::vector<Value>& values) {
    for (const Argument& arg : args) {
        switch (arg.kind) {
        case Argument::Kind::Positional:
            positional.push_back(evaluate(*arg.value));
            break;
        case Argument::Kind::Keyword:
            names.push_back(arg.name);
            values.push_back(evaluate(*arg.value));
            break;
        case Argument::Kind::Star: {
            Value seq = evaluate(*arg.value);
            mark();
            if (!interp.isIterable(seq))
                interp.raiseTypeError(messages.afterStar + " must be an iterable, not " +
                                      interp.typeName(seq));
            for (Value& v : interp.toVector(seq))
                positional.push_back(std::move(v));
            break;
        }
        case Argument::Kind::DoubleStar: {
            Value mapping = evaluate(*arg.value);
            mark();
            if (!mapping.is(ObjectKind::Dict))
                interp.raiseTypeError(messages.afterDoubleStar + " must be a mapping, not " +
                                      interp.typeName(mapping));
            mapping.as<DictObject>()->forEach([&](const Value& k, const Value& v) {
                if (!k.is(ObjectKind::Str)) interp.raiseTypeError("keywords must be strings");
                Symbol name = Symbol::intern(k.as<StrObject>()->str());
                if (std::find(names.begin(), names.end(), name) != names.end())
                    interp.raiseTypeError(messages.duplicateKeyword +
                                          " got multiple values for keyword argument '" +
                                          name.str() + "'");
                names.push_back(name);
                values.push_back(v);
            });
            break;
        }
        }
    }
}

} // namespace kiln::lang
