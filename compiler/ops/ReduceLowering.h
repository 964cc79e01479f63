// Lowering pieces of T.reduce_* shared by ReduceOp.cpp and ReduceAccumulatorLowering.cpp.
#pragma once
#include "compiler/transforms/LowerCommon.h"

namespace ts::xform::lower {

/// T.reduce_* along dim 1 of an mma.sync (mma_c) or MFMA (mfma_c) accumulator fragment into its
/// row companion (mma_c_rows / mfma_c_rows)
/// (ReduceAccumulatorLowering.cpp); called by the reduce op's lowering.
ir::Stmt lowerReduceAccumulator(Ctx& c, const ir::TileOpNode& op, const LoweredFragment& src,
                                const LoweredFragment& dst);

/// T.reduce_* of any rank, dim and fragment layout, or of/into a shared tile, through a shared
/// scratch tile (ReduceSharedLowering.cpp): the path for everything the shuffle lowerings do
/// not cover. nullptr after a diagnostic.
ir::Stmt lowerReduceThroughShared(Ctx& c, const ir::TileOpNode& op);

}  // namespace ts::xform::lower
