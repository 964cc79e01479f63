// Views of a kernel tensor's memory (T.Tensor(shape, dtype, A.data), T.reshape / T.view of a
// tensor): a Global buffer that is not a parameter, with its own row-major shape and the
// parameter's dtype, recorded in the function's attrs as "view_of.<view name>" = the
// parameter's name (buffer names are unique in a PrimFunc). The interpreters address the
// parameter's storage through the view's shape, codegen uses the parameter's pointer (accesses
// are flattened through the view's shape by lower-to-threads), the printer declares the view.
#pragma once
#include <string>

#include "compiler/ir/Stmt.h"

namespace ts::ir {

/// The attrs key that records view `viewName`.
inline std::string viewAttrKey(const std::string& viewName) { return "view_of." + viewName; }

/// The kernel tensor parameter whose memory `b` views, or null when `b` is not a view.
inline const BufferNode* viewBase(const PrimFuncNode& f, const BufferNode& b) {
    if (b.scope != Scope::Global) return nullptr;
    auto it = f.attrs.find(viewAttrKey(b.name));
    if (it == f.attrs.end()) return nullptr;
    const std::string* base = std::get_if<std::string>(&it->second);
    if (!base) return nullptr;
    for (auto& p : f.params)
        if (p->name == *base) return p.get();
    return nullptr;
}

}  // namespace ts::ir
