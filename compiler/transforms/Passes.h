// Entry points of all passes (one .cpp per pass under compiler/transforms/). Pipeline.cpp lists
// them in lowering order; each .cpp opens with what it requires, produces and invalidates.
#pragma once
#include "compiler/PassManager.h"

namespace ts::xform {

ir::PrimFunc simplify(const ir::PrimFunc& f, PassContext& ctx);
ir::PrimFunc checkBounds(const ir::PrimFunc& f, PassContext& ctx);
ir::PrimFunc inferLayouts(const ir::PrimFunc& f, PassContext& ctx);
ir::PrimFunc planPipelines(const ir::PrimFunc& f, PassContext& ctx);
ir::PrimFunc injectPipeline(const ir::PrimFunc& f, PassContext& ctx);
ir::PrimFunc markIterationSmem(const ir::PrimFunc& f, PassContext& ctx);
ir::PrimFunc lowerTileOps(const ir::PrimFunc& f, PassContext& ctx);
ir::PrimFunc insertSync(const ir::PrimFunc& f, PassContext& ctx);
ir::PrimFunc sinkTmaWaits(const ir::PrimFunc& f, PassContext& ctx);
ir::PrimFunc planSharedMemory(const ir::PrimFunc& f, PassContext& ctx);
ir::PrimFunc lowerToThreads(const ir::PrimFunc& f, PassContext& ctx);
ir::PrimFunc warpSpecialize(const ir::PrimFunc& f, PassContext& ctx);
ir::PrimFunc stageEpilogue(const ir::PrimFunc& f, PassContext& ctx);
/// Whether warp-specialize runs (its default, or $TILESCOPE_HOPPER_WS): stage-epilogue leaves
/// such kernels' stores in registers (a TMA store is issued by the elected thread, which warp
/// specialization moves into the producer warpgroup).
bool warpSpecializeEnabled();
ir::PrimFunc rasterizeBlocks(const ir::PrimFunc& f, PassContext& ctx);

}  // namespace ts::xform
