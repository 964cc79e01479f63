// An access through a view of a kernel tensor (ir/Views.h) is an access of the tensor: the sets of
// written / atomically updated buffers that decide outputs and `const` parameters include, with
// each view, the tensor under it.
#pragma once
#include <set>

#include "compiler/ir/Views.h"

namespace ts::ir {

/// Adds to `buffers` the kernel tensor under each view in it.
inline void addViewBases(const PrimFuncNode& f, std::set<const BufferNode*>& buffers) {
    std::set<const BufferNode*> bases;
    for (auto* b : buffers)
        if (const BufferNode* v = viewBase(f, *b)) bases.insert(v);
    buffers.insert(bases.begin(), bases.end());
}

}  // namespace ts::ir
