// T.gemm on the wgmma path (GemmEngine::Wgmma, sm_90a): warpgroup-level wgmma.mma_async over
// shared-memory descriptors (PTX ISA §9.7.15), accumulator layout analysis::makeWgmmaAccumulator.
// Per gemm: infer-layouts (gemmLayoutsSm90) asks transforms/Hopper.h selectHopperGemm whether
// this gemm, its operand copies and its loop qualify; the answer is recorded in the layouts (the
// accumulator gets the "wgmma_c" family), and a gemm that does not qualify keeps the mma.sync
// path of GemmSm80.cpp in both places.
#include "compiler/analysis/HwLayouts.h"
#include "compiler/analysis/WgmmaLayouts.h"
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

void gemmLayoutsSm90(LayoutSolver& s, const ir::TileOpNode& t) {
    using namespace ts::ir;
    if (t.args.size() < 3 || !t.isRegion(0) || !t.isRegion(1) || !t.isRegion(2)) return;
    const Region &A = t.region(0), &B = t.region(1), &C = t.region(2);
    auto cs = constExtents(C);
    // Malformed accumulators and partial warps get gemmLayoutsSm80's diagnostics.
    if (C.buffer->scope != Scope::Fragment || !cs || cs->size() != 2 || s.threads() % 32 != 0) return gemmLayoutsSm80(s, t);
    // TMA + wgmma when the gemm, its operand copies and its loop qualify (Hopper.h); the layouts
    // are the record of the choice (lowerGemmSm90, inject-pipeline and codegen read them).
    auto plan = xform::selectHopperGemm(s.func(), t, s.threads(), s.target());
    if (!plan) return gemmLayoutsSm80(s, t);
    const int64_t M = (*cs)[0], N = (*cs)[1];
    const std::string where = "T.gemm at " + LayoutSolver::lineOf(t.span);
    s.annotate(t, {{"wgmma_warpgroups", int64_t(plan->warpgroups)}});
    s.require(C.buffer, analysis::makeWgmmaAccumulator(M, N, {plan->warpgroups, 1, N}), where, t.span);
    s.require(A.buffer, analysis::makeWgmmaSharedLayout(plan->a), where, t.span);
    s.require(B.buffer, analysis::makeWgmmaSharedLayout(plan->b), where, t.span);
}

}  // namespace ts::ops
