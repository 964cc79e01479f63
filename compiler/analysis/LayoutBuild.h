// Small builders shared by the layout constructors (Layouts.cpp, HwLayouts.cpp): integer index
// arithmetic with constant operands and an empty fragment with named input/inverse variables.
// Internal to compiler/analysis; not part of its public API.
#pragma once
#include <memory>
#include <vector>

#include "compiler/ir/Builder.h"
#include "compiler/ir/Layout.h"

namespace ts::analysis::lb {

inline ir::Expr c(int64_t v) { return ir::intImm(v); }
inline ir::Expr div(ir::Expr a, int64_t b) { return ir::floordiv(std::move(a), c(b)); }
inline ir::Expr mod(ir::Expr a, int64_t b) { return ir::floormod(std::move(a), c(b)); }
inline ir::Expr mulc(ir::Expr a, int64_t b) { return ir::mul(std::move(a), c(b)); }

/// A Fragment layout of `shape` with input variables named from `names` (cycled: i, j, k, l by
/// default) and inverse variables t (thread) and r (local); maps are left for the caller.
inline std::shared_ptr<ir::LayoutNode> newFragment(std::vector<int64_t> shape,
                                                   std::vector<const char*> names = {"i", "j", "k",
                                                                                     "l"}) {
    auto l = std::make_shared<ir::LayoutNode>();
    l->kind = ir::LayoutKind::Fragment;
    l->shape = std::move(shape);
    for (size_t d = 0; d < l->shape.size(); ++d)
        l->inputs.push_back(ir::makeVar(names[d % names.size()]));
    l->invThread = ir::makeVar("t");
    l->invLocal = ir::makeVar("r");
    return l;
}

}  // namespace ts::analysis::lb
