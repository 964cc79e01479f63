// Kernel functions with several `with T.Kernel` blocks (DESIGN.md §2b): TileLang launches the
// blocks of one prim_func one after the other on the same tensors (split-KV decode: the split
// kernel, then the combine kernel; a backward pass's postprocess after its main kernel).
// compile() splits such a function into one launch per block, each compiled by the whole
// pipeline into a kernel of its own (CompileResult::launches), run in order by `tilec run` on
// the GPU and both interpreters. Internal to compiler/ (Compile.cpp); callers read CompileResult.
#pragma once
#include <vector>

#include "compiler/ir/Stmt.h"

namespace ts {

/// Number of T.Kernel blocks in `f` (0 when it has none).
int kernelBlockCount(const ir::PrimFunc& f);

/// The T.Kernel blocks of `f`, in program order, each as a PrimFunc of its own: `f`'s tensor
/// parameters, scalars, layouts and attributes, the block as its body, named `<f.name>_<i>`
/// (i = 0, 1, ...) and with outputs = `f`'s outputs plus the tensors the block writes (what the
/// next launch may read). Call it when kernelBlockCount(f) >= 2. Anything at the function's top
/// level other than the blocks (a run-time `if` around a block, a statement between blocks) is
/// a CompileError at that statement.
std::vector<ir::PrimFunc> splitKernelBlocks(const ir::PrimFunc& f);

}  // namespace ts
