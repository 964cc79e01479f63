#include "compiler/analysis/SharedViewLayout.h"

#include "compiler/analysis/Layouts.h"
#include "compiler/ir/Views.h"

namespace ts::analysis {
using namespace ts::ir;

bool isRowMajorShared(const LayoutNode* l) {
    return !l || (l->kind == LayoutKind::Shared && l->swizzleBytes == 0 && l->padElems == 0 && !l->offset);
}

const LayoutNode* viewedTileLayout(const PrimFuncNode& f, const BufferNode& view) {
    if (view.scope != Scope::Shared) return nullptr;
    const std::string base = sharedViewBase(f.attrs, view.name);
    if (base.empty()) return nullptr;
    auto it = f.layouts.find(base);
    if (it == f.layouts.end() || isRowMajorShared(it->second.get())) return nullptr;
    return it->second.get();
}

std::string viewPlacementWhyNot(const PrimFuncNode& f, const BufferNode& view, const BufferNode& tile, const LayoutNode& tl) {
    const std::string what = "'" + view.name + "' views shared tile '" + tile.name + "', whose layout (" + tl.description + ") ";
    const int vb = dtypeBits(view.dtype), tb = dtypeBits(tile.dtype);
    if (vb < 8 || tb < 8) return what + "is not row-major, and a sub-byte element type cannot be placed through it";
    if ((vb > tb && vb % tb) || (tb > vb && tb % vb))
        return what + "is not row-major, and a " + std::to_string(vb / 8) + "-byte view element does not tile its " +
               std::to_string(tb / 8) + "-byte elements";
    if (auto it = f.layouts.find(view.name); it != f.layouts.end() && !isRowMajorShared(it->second.get()))
        return what + "is not row-major, and the view has a layout of its own (" + it->second->description +
               "): one set of bytes cannot follow two layouts";
    // Vector accesses (up to 16 bytes) and view elements wider than the tile's read consecutive
    // bytes: the layout must keep each 16-byte chunk of the row-major tile together, at a
    // 16-byte boundary (XOR swizzles and wgmma operand tiles move whole chunks).
    const int64_t cols = tl.shape.empty() ? 0 : tl.shape.back();
    const std::string split = what + "does not keep 16-byte chunks of its rows together, so view elements and " +
                              "vector accesses through the view would be split";
    if (vb > 128) return what + "moves 16-byte chunks, and a view element is wider";
    if (cols * tb % 128) return vb > tb ? split : std::string();  // no vector access spans such rows' chunks
    const int64_t chunk = 128 / tb;
    if (tl.offset) {
        if (tl.physicalElems % chunk) return split;
        int64_t n = 1;
        for (int64_t e : tl.shape) n *= e;
        if (n > (int64_t(1) << 22)) return split;
        std::vector<std::pair<const VarNode*, int64_t>> env(tl.inputs.size());
        std::vector<int64_t> at(tl.shape.size(), 0);
        int64_t first = 0;
        for (int64_t i = 0; i < n; ++i) {
            for (size_t d = 0; d < at.size() && d < env.size(); ++d) env[d] = {tl.inputs[d].get(), at[d]};
            auto p = evalInt(tl.offset, env);
            if (!p) return split;
            if (i % chunk == 0) {
                if (*p % chunk) return split;
                first = *p;
            } else if (*p != first + i % chunk) {
                return split;
            }
            for (size_t d = at.size(); d-- > 0;) {  // next logical element, row-major
                if (++at[d] < tl.shape[d]) break;
                at[d] = 0;
            }
        }
        return {};
    }
    if (tl.padElems * tb % 128) return split;
    return {};
}

}  // namespace ts::analysis
