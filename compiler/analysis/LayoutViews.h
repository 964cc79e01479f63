// A fragment layout seen through other indices: permuted (a T.Parallel(i, j) nest writing
// `t[j, i]`) or through another row-major shape (T.reshape of a fragment; a 3-D T.Parallel nest
// distributed like the 2-D nest over its merged leading dims). Both keep every element in the
// same thread and register, so the views share the original's registers.
#pragma once
#include <vector>

#include "compiler/ir/Layout.h"

namespace ts::analysis {

/// The layout `l` through permuted indices: element x of the result is element y of `l` with
/// y[perm[d]] = x[d], in the same thread and register; shape[d] = l.shape[perm[d]]. The
/// identity gives `l` itself. family "permuted" (no row companion), params = perm.
ir::Layout permuteLayout(const ir::Layout& l, const std::vector<size_t>& perm);

/// The layout `l` through another row-major shape of the same element count: element x of the
/// result is the element of `l` at the same row-major linear index, in the same thread and
/// register. A layout with padded slots (inverse indices past the shape) can only change its
/// leading dims (the last extent must stay), so padding stays out of range; otherwise null.
/// A replicated layout stays replicated. family "reshaped", params = shape.
ir::Layout reshapeLayout(const ir::Layout& l, const std::vector<int64_t>& shape);

}  // namespace ts::analysis
