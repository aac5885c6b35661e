// SPDX-License-Identifier: MIT
#include "lang/option_value_script.h"

#include "support/assert.h"

namespace kiln::lang {

OptionValue optionValueFromScript(Interpreter& interp, const Value& v) {
    if (v.isNone()) return std::monostate{};
    if (v.isBool()) return v.asBool();
    if (v.isInt()) return v.asInt();
    if (v.isFloat()) return v.asFloat();
    if (v.is(ObjectKind::Str)) return v.as<StrObject>()->str();
    if (v.is(ObjectKind::List)) {
        std::vector<std::string> items;
        for (const Value& item : v.as<ListObject>()->items)
            if (item.is(ObjectKind::Str)) items.push_back(item.as<StrObject>()->str());
        if (items.size() == v.as<ListObject>()->items.size()) return items;
    }
    return OtherValue{interp.typeName(v), interp.repr(v), interp.truthy(v)};
}

Value optionValueToScript(const OptionValue& value) {
    switch (value.index()) {
    case 0:
        return Value::none();
    case 1:
        return Value::fromBool(std::get<bool>(value));
    case 2:
        return Value::fromInt(std::get<int64_t>(value));
    case 3:
        return Value::fromFloat(std::get<double>(value));
    case 4:
        return strValue(std::get<std::string>(value));
    case 5: {
        std::vector<Value> items;
        for (const std::string& s : std::get<std::vector<std::string>>(value))
            items.push_back(strValue(s));
        return listValue(std::move(items));
    }
    default:
        KILN_UNREACHABLE("an OtherValue has no script value of its own");
    }
}

} // namespace kiln::lang
