// lowerWgmma (Hopper.h): T.gemm on the sm_90a path -> tl.wgmma_ss. infer-layouts gave the
// accumulator the wgmma layout and the operands wgmma_smem tiles (selectHopperGemm checked the
// shapes), so this only clears the accumulator when asked and names the tiles' bases.
#include "compiler/transforms/Hopper.h"

namespace ts::xform {
using namespace ts::ir;
using namespace ts::xform::lower;

Stmt lowerWgmma(Ctx& c, const TileOpNode& op) {
    const Region &A = op.region(0), &B = op.region(1), &C = op.region(2);
    auto& cf = c.frags.at(C.buffer.get());
    const LayoutNode& L = *cf.layout;  // family "wgmma_c", params {M, N, wgm, wgn, instN}
    const int64_t M = L.familyParams.at(0), N = L.familyParams.at(1), wg = L.familyParams.at(2);
    const bool ta = attrBool(op.attrs, "transpose_A", false), tb = attrBool(op.attrs, "transpose_B", false);
    const int64_t K = ta ? constInt(A.ranges[A.ranges.size() - 2].extent).value_or(0)
                         : constInt(A.ranges.back().extent).value_or(0);
    std::vector<Stmt> out;
    if (attrBool(op.attrs, "clear_accum", false)) out.push_back(clearAccumulator(c, cf, C.buffer->dtype, op.span));
    out.push_back(intrinsicStmt(intrin::kWgmmaSS,
                                {regionBase(A), regionBase(B), addressOf(cf.regs, {intImm(0)}), intImm(M), intImm(N), intImm(K), intImm(wg),
                                 boolImm(ta), boolImm(tb), intImm(attrInt(op.attrs, "wgmma_wait", 0))},
                                op.span));
    // attr wgmma_wait = 1: InjectPipelineTma keeps this gemm in flight into the next iteration;
    // the accumulator's next reader waits for it (lowerWgmmaWait).
    return seq(out, op.span);
}

Stmt lowerWgmmaWait(Ctx& c, const LoweredFragment& f) {
    if (f.layout->family != "wgmma_c") return nullptr;
    return intrinsicStmt(intrin::kWgmmaWait, {addressOf(f.regs, {intImm(0)}), intImm(f.layout->localSize), intImm(0)}, f.regs->span);
}

}  // namespace ts::xform
