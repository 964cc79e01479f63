// Factories of the built-in tile ops, one per op file (CopyOp.cpp, GemmOp.cpp, FillOp.cpp,
// ReduceOp.cpp, CumsumOp.cpp, AtomicOp.cpp). Only Registry.cpp calls them: explicit calls, not
// static registration objects, because the compiler is a static library and the linker drops
// object files nothing refers to.
#pragma once
#include <memory>

#include "compiler/ops/TileOp.h"

namespace ts::ops {

std::unique_ptr<TileOp> makeCopyOp();
std::unique_ptr<TileOp> makeGemmOp();
std::unique_ptr<TileOp> makeFillOp();
std::unique_ptr<TileOp> makeReduceOp();
std::unique_ptr<TileOp> makeCumsumOp();
std::unique_ptr<TileOp> makeAtomicOp();

}  // namespace ts::ops
