// T.gemm on the wgmma path (GemmEngine::Wgmma, sm_90a): warpgroup-level wgmma.mma_async over
// shared-memory descriptors (PTX ISA §9.7.15), accumulator layout analysis::makeWgmmaAccumulator.
// Per gemm: infer-layouts (gemmLayoutsSm90) asks transforms/Hopper.h selectHopperGemm whether
// this gemm, its operand copies and its loop qualify; the answer is recorded in the layouts (the
// accumulator gets the "wgmma_c" family), and a gemm that does not qualify keeps the mma.sync
// path of GemmSm80.cpp in both places.
#include "compiler/ops/GemmLowering.h"
#include "compiler/transforms/Hopper.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::ops {

ir::Stmt lowerGemmSm90(xform::lower::Ctx& c, const ir::TileOpNode& op, const Target& target) {
    const ir::Region& C = op.region(2);
    if (auto it = c.frags.find(C.buffer.get()); it != c.frags.end() && it->second.layout->family == "wgmma_c")
        return xform::lowerWgmma(c, op);
    return lowerGemmSm80(c, op, target);
}

void gemmLayoutsSm90(LayoutSolver&, const ir::TileOpNode&) {}

}  // namespace ts::ops
