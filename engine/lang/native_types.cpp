// SPDX-License-Identifier: MIT
#include "lang/native_types.h"

#include "lang/types.h"

#include <vector>

namespace kiln::lang {

Ref<TypeObject> makeNativeType(const std::string& name, const std::string& moduleName,
                               ObjectKind instanceKind, Ref<TypeObject> base) {
    auto t = makeRef<TypeObject>(
        name, std::vector<Ref<TypeObject>>{base ? base : builtinTypes().object}, instanceKind);
    t->setType(builtinTypes().type.get());
    t->moduleName = moduleName;
    t->computeMro();
    return t;
}

const Ref<TypeObject>& dtypeType() {
    static const Ref<TypeObject> type = makeNativeType("dtype", "torch");
    return type;
}

Value dtypeValue(tensor::DType dtype) {
    static const std::vector<Ref<DTypeObject>> objects = [] {
        std::vector<Ref<DTypeObject>> v;
        for (int i = 0; i < tensor::kDTypeCount; ++i)
            v.push_back(makeRef<DTypeObject>(dtypeType().get(), static_cast<tensor::DType>(i)));
        return v;
    }();
    return Value(objects[static_cast<size_t>(dtype)]);
}

std::optional<tensor::DType> dtypeOfValue(const Value& v) {
    if (!v.is(ObjectKind::Native) || v.asObject()->type() != dtypeType().get()) return std::nullopt;
    const auto* d = v.as<DTypeObject>();
    if (d->unsupported) return std::nullopt;
    return d->dtype;
}

} // namespace kiln::lang
