// Where the elements of a shared tile and of its T.view / T.reshape views live when some of them
// has a layout that is not row-major. A tile and its views are one set of bytes: TileLang derives
// a view's layout from the tile's (its test_tilelang_language_view.py writes through the
// allocation and reads through a reinterpreting view, swizzled or not), and a view that is a gemm
// operand or carries T.annotate_layout gives its layout to the bytes the tile's other names see.
// One member of the group -- the tile when its layout is not row-major, else the first view that
// has such a layout -- places the group's bytes ("authority"); lower-to-threads places every other
// member's element at the authority's physical element holding its first byte, unless the
// member's own layout already maps bytes the same way. Elements and vector accesses (up to 16
// bytes) read consecutive bytes, so the authority's layout must keep each 16-byte chunk whole at
// a 16-byte boundary: XOR swizzles (analysis/Swizzle.h) and wgmma operand tiles do, padded rows
// when the padding is whole chunks, a T.Layout map when it evaluates so. A TMA copy into or out of
// a placed member goes element by element (ops/CopyTma.cpp): the tensor map would describe the
// member's box row-major.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Layout.h"
#include "compiler/ir/Stmt.h"

namespace ts::analysis {

/// True for a shared layout that stores elements row-major (no swizzle, no padding, no map).
bool isRowMajorShared(const ir::LayoutNode* l);

/// How one shared buffer of a tile-and-views group is placed.
struct SharedPlacement {
    /// The member whose layout places this buffer's elements, and that layout (both null when
    /// the buffer's own layout is used).
    const ir::BufferNode* through = nullptr;
    const ir::LayoutNode* layout = nullptr;
    /// Non-empty when the group's layouts cannot be reconciled for this buffer (two layouts that
    /// map bytes differently, an authority that splits 16-byte chunks, sub-byte or mismatched
    /// element sizes): the message names the buffers and layouts; `hint` says what to change.
    std::string error, hint;
};

/// The placement of every shared buffer of `f` that is placed through another member's layout or
/// cannot be placed, by buffer name (buffers that keep their own layout are absent). Empty when
/// `f` has no shared views, so the common case costs one scan of the attrs.
std::map<std::string, SharedPlacement> sharedPlacements(const ir::PrimFuncNode& f);

/// Physical element offset (in `b`'s units, from the group's first byte) of element `idx` of a
/// buffer placed by `p` (p.through set): the number lower-to-threads computes, for the layout
/// views and the bank analysis. nullopt when `b` or the authority has no constant shape.
std::optional<int64_t> placedElementOffset(const SharedPlacement& p, const ir::BufferNode& b, const std::vector<int64_t>& idx);

}  // namespace ts::analysis
