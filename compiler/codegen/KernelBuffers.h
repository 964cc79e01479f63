// Kernel-level facts about the buffers the generated code declares: which ones the kernel writes
// (a parameter it never writes is `const __restrict__`), and which views of kernel tensors have a
// dtype of their own (declared as a pointer of their element type, ir/Views.h).
#pragma once
#include <set>
#include <vector>

#include "compiler/ir/IR.h"

namespace ts::codegen {

/// Buffers `f` writes: stores, the intrinsics that write through an address (vector copies,
/// atomics, cp.async, pair stores), return_prev atomics, the tensors of TMA stores and reduce-adds
/// (by their tensor map), and the tensor under every written view.
std::set<const ir::BufferNode*> writtenBuffers(const ir::PrimFuncNode& f);

/// The views of kernel tensors with a dtype of their own that `f`'s body loads or stores, in
/// first-use order.
std::vector<const ir::BufferNode*> dtypeViews(const ir::PrimFuncNode& f);

}  // namespace ts::codegen
