// Shared-memory views (T.view / T.reshape of a T.alloc_shared tile; ir/Views.h records them as
// "smem_view_of.<view>" = the viewed tile). On the GPU a view and the tile it views are one set
// of bytes, from the tile's first byte: a value written through one name is read through the
// other with the other's dtype (a float16 tile read as int8 gives its bytes, PTX ISA 5.2 data
// types: little-endian, element i at byte i * size). The interpreters keep one double per
// element, so they keep the names consistent by re-deriving the other name's overlapping
// elements from the written element's bits. Before this, each name had storage of its own and
// the thread interpreter poisoned the other's bytes on a write: reading data through a view gave
// NaN on both interpreters and the data on the GPU (TileLang's own reshape tests).
#pragma once
#include <cstdint>
#include <string>
#include <utility>

#include "compiler/interp/Machine.h"

namespace ts::interp::detail {

/// Re-derives every element of `dst` that overlaps elements [first, last] of `src` from the bits
/// of `src` (and of `dst` itself where an element of dst reaches past those bytes). Both lie in
/// one address space of bits: element i of a buffer starts at bit `bit0 + i * dtypeBits`. Marks
/// an element of dst written (when dst tracks that) once every source element under it was
/// written. Returns the first and last element
/// of dst it changed, or {1, 0} when none overlaps.
std::pair<int64_t, int64_t> copyViewBits(const BufferState& src, int64_t srcBit0, int64_t first, int64_t last,
                                         BufferState& dst, int64_t dstBit0);

/// The shared tile whose bytes `name` lies on (the viewed tile for a view, `name` otherwise).
std::string sharedStorageRoot(const ir::Attrs& attrs, const std::string& name);

}  // namespace ts::interp::detail
