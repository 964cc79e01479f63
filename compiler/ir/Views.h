// Views of a kernel tensor's memory (T.Tensor(shape, dtype, A.data), T.reshape / T.view of a
// tensor): a Global buffer that is not a parameter, with its own row-major shape and dtype (the parameter's, or another
// of whole bytes: the same bytes), recorded in the function's attrs as "view_of.<view name>" = the parameter's name
// (buffer names are unique in a PrimFunc). The interpreters address the parameter's storage through the view's shape (a view
// of another dtype: storage of its own kept equal to the bytes, interp/SharedViews.h), codegen uses the parameter's pointer
// (cast to the view's element type) with accesses flattened through the view's shape by lower-to-threads; the printer declares the view.
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

/// The attrs key that records a view of shared memory (T.view / T.reshape of a T.alloc_shared
/// buffer): "smem_view_of.<view>" = the viewed buffer's name. The view is a Shared buffer with
/// its own shape and dtype on the viewed buffer's bytes from its start: plan-smem gives it the
/// viewed buffer's offset (and lists both in "smem_shares", so the thread interpreter poisons
/// the bytes one name overwrites in the other), insert-sync orders it as the viewed buffer.
inline std::string sharedViewAttrKey(const std::string& viewName) { return "smem_view_of." + viewName; }

/// The name of the shared buffer that `name` views, or "" when it is not a shared view.
inline std::string sharedViewBase(const Attrs& attrs, const std::string& name) {
    auto it = attrs.find(sharedViewAttrKey(name));
    if (it == attrs.end()) return {};
    const std::string* base = std::get_if<std::string>(&it->second);
    return base ? *base : std::string();
}

/// The name of the buffer whose storage `b` lies on: the viewed kernel tensor, fragment or shared
/// tile when `b` is a view of one (a view of a view names the first), else `b` itself. Passes that
/// decide what may be reordered or made asynchronous compare accesses by this name: compared by
/// buffer, a copy into a view of a tile looked independent of a gemm reading the tile.
inline std::string storageName(const PrimFuncNode& f, const BufferNode& b) {
    const std::string key = b.scope == Scope::Shared ? sharedViewAttrKey(b.name) : viewAttrKey(b.name);
    auto it = f.attrs.find(key);
    if (it != f.attrs.end())
        if (const std::string* base = std::get_if<std::string>(&it->second)) return *base;
    return b.name;
}

}  // namespace ts::ir
