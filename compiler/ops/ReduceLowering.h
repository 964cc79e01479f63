// Lowering pieces of T.reduce_* shared by ReduceOp.cpp and ReduceAccumulatorLowering.cpp.
#pragma once
#include "compiler/transforms/LowerCommon.h"

namespace ts::xform::lower {

/// T.reduce_* along dim 1 of an mma.sync accumulator fragment into its mma_c_rows companion
/// (ReduceAccumulatorLowering.cpp); called by the reduce op's lowering.
ir::Stmt lowerReduceAccumulator(Ctx& c, const ir::TileOpNode& op, const LoweredFragment& src,
                                const LoweredFragment& dst);

}  // namespace ts::xform::lower
