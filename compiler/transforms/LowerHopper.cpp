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
    // clear_accum: the wgmma's own scale-d = 0 on the first k-step; no zeroing moves.
    std::vector<Stmt> out;
    out.push_back(intrinsicStmt(intrin::kWgmmaSS,
                                {regionBase(A), regionBase(B), addressOf(cf.regs, {intImm(0)}), intImm(M), intImm(N), intImm(K), intImm(wg),
                                 boolImm(ta), boolImm(tb), intImm(attrInt(op.attrs, "wgmma_wait", 0)), intImm(1),
                                 boolImm(attrBool(op.attrs, "clear_accum", false))},
                                op.span));
    // attr wgmma_wait = 1: InjectPipelineTma keeps this gemm in flight into the next iteration;
    // the accumulator's next reader waits for it (lowerWgmmaWait).
    return seq(out, op.span);
}

Stmt lowerWgmmaFragment(Ctx& c, const TileOpNode& op) {
    const Region &A = op.region(0), &B = op.region(1), &C = op.region(2);
    auto& cf = c.frags.at(C.buffer.get());
    const bool regA = A.buffer->scope == Scope::Fragment;
    const bool ta = attrBool(op.attrs, "transpose_A", false), tb = attrBool(op.attrs, "transpose_B", false);
    auto ce = constShape(*C.buffer), ae = regA ? constShape(*A.buffer) : constExtents(A);
    // The tile's own two dimensions are the last two: inject-pipeline gives a staged A tile a
    // leading stage dimension ((stages, M, K) for SwiGLU's X tile). A shared A's extents are
    // the region's: a column slice read in place (regionBase: its first panel, wgmmaColumnSlice).
    const size_t ar = ae->size();
    const int64_t M = (*ce)[0], N = (*ce)[1], K = ta ? (*ae)[ar - 2] : (*ae)[ar - 1];
    const int64_t wg = attrInt(op.attrs, "wgmma_warpgroups", 1);
    std::vector<Stmt> out;
    // clear_accum with A in registers: zeroed here (wgmma_gemm_rs has no scale-d form); with A
    // shared, the wgmma's scale-d = 0 on its first k-step (tl.wgmma_ss's `clear`).
    if (regA && attrBool(op.attrs, "clear_accum", false)) out.push_back(clearAccumulator(c, cf, C.buffer->dtype, op.span));
    // The operand tiles were written through the generic proxy (cp.async, plain stores); each
    // thread orders its writes before the async proxy's reads, then a barrier hands them to every
    // warpgroup (PTX ISA §9.7.13.4 fence.proxy.async; CUTLASS's fence_view_async_shared).
    // With the TMA schedule (InjectPipelineTmaFragment.cpp, attr wgmma_operands_ready) the tiles
    // come from the async proxy behind an mbarrier wait, and the loop-invariant ones were fenced
    // once before the loop: neither the fence nor the barrier is needed.
    if (!attrBool(op.attrs, "wgmma_operands_ready", false)) {
        out.push_back(evaluate(call(intrin::kFenceProxyAsync, {}, DType::Int32, op.span), op.span));
        out.push_back(evaluate(call(intrin::kSyncThreads, {}, DType::Int32, op.span), op.span));
    }
    // attr wgmma_retire_acc (InjectPipeline.cpp pairIndependentWgmmas): the previous gemm, into
    // that accumulator, is still in flight; this gemm's wait_group 0 retires it, and a
    // tl.wgmma_wait(0) on its registers pins them after that wait (no read moves above it).
    // With attr wgmma_retire_wait = 1 (the softmax overlap, InjectPipelineTmaFragment.cpp) this
    // gemm stays in flight itself: its wait_group 1 retires only the older group.
    Stmt retire;
    if (auto name = attrStr(op.attrs, "wgmma_retire_acc", ""); !name.empty())
        for (auto& [buf, lf] : c.frags)
            if (buf->name == name && buf->scope == Scope::Fragment)
                retire = intrinsicStmt(intrin::kWgmmaWait,
                                       {addressOf(lf.regs, {intImm(0)}), intImm(lf.layout->localSize), intImm(attrInt(op.attrs, "wgmma_retire_wait", 0))},
                                       op.span);
    if (regA) {
        auto& af = c.frags.at(A.buffer.get());
        std::vector<Expr> args{addressOf(af.regs, {intImm(0)}), regionBase(B), addressOf(cf.regs, {intImm(0)}), intImm(M),
                               intImm(N), intImm(K), intImm(wg), boolImm(tb)};
        // attr wgmma_wait = 1 (pairIndependentWgmmas): committed with wait_group 1, left in
        // flight (a 9th argument; tl.wgmma_rs without it waits to completion).
        if (int64_t w = attrInt(op.attrs, "wgmma_wait", 0); w > 0) args.push_back(intImm(w));
        out.push_back(intrinsicStmt(intrin::kWgmmaRS, args, op.span));
        if (retire) out.push_back(retire);
    } else {
        // attr warpgroup_pass (InjectPipelineTmaFragment.cpp's ping-pong): the other warpgroup's
        // turn begins as soon as this gemm is issued, not when it completes: committed with
        // wait_group 1 (returns at once: the loop's earlier gemms were waited), the turn passed,
        // then waited. Issued right before the wait, the bar.arrive also keeps its place in the
        // SASS: a bar.arrive statement after the gemm's wait was sunk by ptxas below the register
        // math that followed (the softmax), handing over the turn only after it.
        const bool pass = attrBool(op.attrs, "warpgroup_pass", false);
        std::vector<Expr> args{regionBase(A), regionBase(B), addressOf(cf.regs, {intImm(0)}), intImm(M), intImm(N), intImm(K),
                               intImm(wg), boolImm(ta), boolImm(tb), intImm(pass ? 1 : attrInt(op.attrs, "wgmma_wait", 0)),
                               // Warpgroups along N too (SelectHopperFragment.cpp, the mma_c layout in warpgroup order).
                               intImm(attrInt(op.attrs, "wgmma_warpgroups_n", 1)), boolImm(attrBool(op.attrs, "clear_accum", false))};
        out.push_back(intrinsicStmt(intrin::kWgmmaSS, std::move(args), op.span));
        // attr wgmma_wait = G (InjectPipelineTmaFragment.cpp's in-flight schedule): the G gemms of
        // an iteration stay in flight into the next; its peeled last iteration waits them all.
        if (pass) {
            out.push_back(intrinsicStmt(intrin::kWarpgroupTurn, {std::make_shared<StrImmNode>("pass", op.span)}, op.span));
            // (Not lowerWgmmaWait: that one is for the wgmma_c family; this accumulator has the
            // mma.sync fragment layout, the same registers.)
            out.push_back(intrinsicStmt(intrin::kWgmmaWait, {addressOf(cf.regs, {intImm(0)}), intImm(cf.layout->localSize), intImm(0)}, op.span));
        }
        if (retire) out.push_back(retire);
    }
    return seq(out, op.span);
}

Stmt lowerWgmmaWait(Ctx& c, const LoweredFragment& f, const Span& at) {
    if (f.layout->family != "wgmma_c") return nullptr;
    return intrinsicStmt(intrin::kWgmmaWait, {addressOf(f.regs, {intImm(0)}), intImm(f.layout->localSize), intImm(0)}, at);
}

}  // namespace ts::xform
