// Views of a fragment's registers (T.reshape / T.view of a fragment with its dtype): an Alloc of
// a Fragment buffer with no storage of its own, recorded in the function's attrs as
// "view_of.<view>" = the name of the fragment it views (the base, allocated before it; a view
// of a view names the first base). infer-layouts gives it the base's layout seen through its
// shape (analysis/LayoutViews.h), lower-tile-ops maps it to the base's registers and the tile
// interpreter to the base's elements. Views of kernel tensors are ir/Views.h.
#pragma once
#include <string>

#include "compiler/ir/Views.h"

namespace ts::ir {

/// The name of the fragment whose registers fragment `b` views, or null when `b` is not a view.
inline const std::string* fragmentViewBase(const PrimFuncNode& f, const BufferNode& b) {
    if (b.scope != Scope::Fragment) return nullptr;
    auto it = f.attrs.find(viewAttrKey(b.name));
    return it == f.attrs.end() ? nullptr : std::get_if<std::string>(&it->second);
}

}  // namespace ts::ir
