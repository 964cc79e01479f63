// Where the elements of a T.view / T.reshape of a shared tile live when the tile's layout is not
// row-major. TileLang gives such a view a layout derived from the tile's, so that both names map
// storage bits alike (its test_tilelang_language_view.py: write through the allocation, read
// through the reinterpreting view, swizzled or not); lower-to-threads places each view element
// at the tile's physical element holding its first byte. The view's accesses (elements wider than
// the tile's, and vector accesses up to 16 bytes) read consecutive bytes, so the layout must keep
// each 16-byte chunk of the row-major tile together at a 16-byte boundary: XOR swizzles
// (analysis/Swizzle.h) and wgmma operand tiles do, padded rows do when the padding is whole
// chunks, a T.Layout map is evaluated over the tile. Copies by TMA into or out of such a view go
// element by element instead (ops/CopyTma.cpp): the tensor map would need the derived layout of a
// box of the view's shape.
#pragma once
#include <string>

#include "compiler/ir/Layout.h"
#include "compiler/ir/Stmt.h"

namespace ts::analysis {

/// True for a shared layout that stores elements row-major (no swizzle, no padding, no map).
bool isRowMajorShared(const ir::LayoutNode* l);

/// The layout of the shared tile `view` lies on (a T.view / T.reshape: ir/Views.h) when that
/// layout is not row-major; null when `view` is not a view or its tile is row-major.
const ir::LayoutNode* viewedTileLayout(const ir::PrimFuncNode& f, const ir::BufferNode& view);

/// Why `view`'s elements cannot be placed through `tile`'s layout `tl` ("" when they can):
/// sub-byte or mismatched element sizes, a layout of the view's own besides the tile's, or a
/// layout that splits 16-byte chunks of the tile's rows (or a view element is wider than 16 bytes).
std::string viewPlacementWhyNot(const ir::PrimFuncNode& f, const ir::BufferNode& view, const ir::BufferNode& tile,
                                const ir::LayoutNode& tl);

}  // namespace ts::analysis
