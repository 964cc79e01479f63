// T.gemm on the wgmma path (GemmEngine::Wgmma, sm_90a): warpgroup-level wgmma.mma_async over
// shared-memory descriptors (PTX ISA §9.7.15), accumulator layout analysis::makeWgmmaAccumulator.
// Per gemm: infer-layouts (gemmLayoutsSm90) asks transforms/Hopper.h selectHopperGemm whether
// this gemm, its operand copies and its loop qualify; the answer is recorded in the layouts (the
// accumulator gets the "wgmma_c" family), and a gemm that does not qualify keeps the mma.sync
// path of GemmSm80.cpp in both places.
#include <set>

#include <algorithm>

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
    if (ir::attrBool(op.attrs, "wgmma_fragment", false)) return xform::lowerWgmmaFragment(c, op);
    return lowerGemmSm80(c, op, target);
}

namespace {
/// The T.Pipelined loop whose body holds `gemm` at its top level, or null.
const ir::ForNode* enclosingPipelined(const ir::PrimFuncNode& f, const ir::TileOpNode& gemm) {
    const ir::ForNode* found = nullptr;
    ir::walk(f.body, [&](const ir::Stmt& st) {
        auto* fr = ir::as<ir::ForNode>(st);
        if (!fr || fr->forKind != ir::ForKind::Pipelined || found) return;
        auto* sq = ir::as<ir::SeqNode>(fr->body);
        if (sq ? std::any_of(sq->stmts.begin(), sq->stmts.end(), [&](const ir::Stmt& x) { return x.get() == &gemm; })
               : fr->body.get() == &gemm)
            found = fr;
    });
    return found;
}

/// Places the accumulator layout of another gemm into the same fragment that takes wgmma on the
/// fragment layouts, when `t` (staying on mma.sync) comes first in program order: blockGemmLayouts
/// then runs `t` on that gemm's warp grid (mma.sync computes the same sums on any grid), so the
/// order of the two gemms does not decide whether the kernel compiles. Only the plain grid (one
/// warp column of 16-row warps): gemm_ss has no warpgroup order.
void placeCoGemmAccumulator(LayoutSolver& s, const ir::TileOpNode& t) {
    using namespace ts::ir;
    const Buffer& C = t.region(2).buffer;
    if (s.placed(C, nullptr)) return;
    bool done = false;
    walk(s.func().body, [&](const Stmt& st) {
        auto* g = as<TileOpNode>(st);
        if (done || !g || g == &t || g->op != TileOpKind::Gemm || g->args.size() < 3 || !g->isRegion(2) || g->region(2).buffer != C) return;
        auto fp = xform::selectHopperFragmentGemm(s.func(), *g, s.threads(), s.target(), nullptr,
                                                  [&](const TileOpNode& x) { return s.wgmmaWarpgroupOrder(x); });
        if (!fp) return;
        ir::Layout l = analysis::makeMmaAccumulator(fp->M, fp->N, {4 * fp->warpgroups, fp->wgn, true});
        auto wp = analysis::mmaWarpPartitionOf(*l);
        if (!wp || wp->byWarpgroup) return;
        done = true;
        s.require(C, l, "T.gemm at " + LayoutSolver::lineOf(g->span), g->span);
    });
}
}  // namespace

void gemmLayoutsSm90(LayoutSolver& s, const ir::TileOpNode& t) {
    using namespace ts::ir;
    if (t.args.size() < 3 || !t.isRegion(0) || !t.isRegion(1) || !t.isRegion(2)) return;
    const Region &A = t.region(0), &B = t.region(1), &C = t.region(2);
    auto cs = constExtents(C);
    // Malformed accumulators and partial warps get gemmLayoutsSm80's diagnostics.
    if (C.buffer->scope != Scope::Fragment || !cs || cs->size() != 2 || s.threads() % 32 != 0) return gemmLayoutsSm80(s, t);
    // TMA + wgmma when the gemm, its operand copies and its loop qualify (Hopper.h); the layouts
    // are the record of the choice (lowerGemmSm90, inject-pipeline and codegen read them).
    std::string why, whyFragment;
    auto plan = xform::selectHopperGemm(s.func(), t, s.threads(), s.target(), &why);
    if (!plan) {
        // Not silent: on sm_90a the user expects TMA + wgmma. Second choice: wgmma on the
        // mma.sync fragment layouts with the sm_80 loads (FlashAttention: Q loaded once, an
        // accumulator the softmax reads, P from registers); else the whole sm_80 path.
        const std::string where = "T.gemm at " + LayoutSolver::lineOf(t.span);
        const char* tmaHint =
            "the TMA path takes a T.gemm of shared tiles, each loaded by one T.copy from a 2-D tensor in the "
            "same T.Pipelined body, with an accumulator used by nothing else";
        if (auto fp = xform::selectHopperFragmentGemm(s.func(), t, s.threads(), s.target(), &whyFragment,
                                                          [&](const ir::TileOpNode& g) { return s.wgmmaWarpgroupOrder(g); })) {
            // The fragment path's own TMA schedule (InjectPipelineTmaFragment.cpp) when the loop's
            // operand copies qualify; the note says which loads the gemm gets.
            const ir::ForNode* loop = enclosingPipelined(s.func(), t);
            std::string whyNoTma;
            std::set<const ir::BufferNode*> written;  // operand tiles the loop writes (two copies, one barrier)
            const bool loopTma = loop && xform::fragmentTmaCopies(s.func(), *loop, s.threads(), s.target(), &whyNoTma, &written);
            std::string barriers = "no block barrier in the loop";
            for (auto* w : written)
                barriers = (barriers.rfind("no ", 0) == 0 ? "'" : barriers + ", '") + w->name + "'";
            if (!written.empty())
                barriers += std::string(written.size() == 1 ? " is" : " are") +
                            " written in the loop: two copies, one block barrier per iteration before the first gemm that reads it";
            // A register A (FlashAttention's P) is the fragment path's own case, not a failed TMA
            // gemm: the note leads with it and says what runs. It led with "T.gemm uses wgmma on the
            // fragment layouts ... the TMA GEMM path declines it: A ('P') is a fragment" and the
            // TMA path's hint, which reads as something to fix (helper-95).
            if (A.buffer->scope == ir::Scope::Fragment) {
                const std::string a = "A ('" + A.buffer->name + "')";
                const std::string lead = "T.gemm: " + a + " is a fragment, so it takes the fragment path (wgmma with A from registers; "
                                         "the TMA GEMM path reads both operands from shared tiles); ";
                if (!loop)
                    s.note(t.span, lead + "no T.Pipelined loop around it: the kernel's own copies and barriers feed it; each wgmma is fenced and waited here",
                           "a T.Pipelined loop of T.copy loads lets TileScope pipeline B's tiles (TMA where legal)");
                else if (loopTma)
                    s.note(t.span, lead + "its loop's tiles are loaded by TMA (mbarrier pipeline, " + barriers + ")",
                           "TILESCOPE_HOPPER_NO_FRAGMENT_TMA=1 keeps the cp.async schedule (for comparisons)");
                else
                    s.note(t.span, lead + "its loop keeps the cp.async pipeline schedule, whose copies take TMA where legal (each copy's note "
                                          "says which); the fragment path's TMA schedule declines the loop: " + whyNoTma,
                           "nothing needs to change: wgmma reads " + a + " from registers where it was computed");
            } else if (!loop)
                s.note(t.span, "T.gemm uses wgmma on the fragment layouts (no T.Pipelined loop around it: the kernel's own "
                               "copies and barriers feed it; each wgmma is fenced and waited here)",
                       "a T.Pipelined loop of T.copy loads lets TileScope pipeline the operand tiles (TMA where legal)");
            else if (loopTma)
                s.note(t.span, "T.gemm uses wgmma on the fragment layouts with its loop's tiles loaded by TMA (mbarrier pipeline, " + barriers + ")",
                       "TILESCOPE_HOPPER_NO_FRAGMENT_TMA=1 keeps the cp.async schedule (for comparisons)");
            else
                s.note(t.span, "T.gemm uses wgmma on the fragment layouts; its loop keeps the cp.async pipeline schedule, whose copies "
                               "take TMA where legal (each copy's note says which); the TMA GEMM path (which splits M only) declines it: " + why +
                                   "; the loop's wgmma-only TMA schedule: " + whyNoTma,
                       tmaHint);
            // The mma_c layout on the plan's warpgroup grid in warpgroup order: wgmma's D fragment
            // (Layouts.h; the plain one-column grid when each warp holds 16 rows of one column).
            const analysis::WarpPartition wp{4 * fp->warpgroups, fp->wgn, true};
            s.annotate(t, {{"warp_m", int64_t(wp.wm)}, {"warp_n", int64_t(wp.wn)}, {"wgmma_fragment", true},
                           {"wgmma_warpgroups", int64_t(fp->warpgroups)}});
            if (fp->wgn > 1) s.annotate(t, {{"wgmma_warpgroups_n", int64_t(fp->wgn)}});
            // The description names the instruction that computes into these registers (the layout
            // is mma.sync's C fragment, element for element: SelectHopperFragment.cpp says why).
            auto asWgmma = [](ir::Layout l, const std::string& role) {
                auto n = std::make_shared<ir::LayoutNode>(*l);
                const std::string mma = "mma.sync m16n8k16 accumulator";
                if (n->description.rfind(mma, 0) == 0)
                    n->description = "wgmma " + role + " in the mma.sync m16n8k16 C layout (PTX ISA 9.7.15.5.1.1.1)" +
                                     n->description.substr(mma.size());
                return ir::Layout(n);
            };
            s.require(C.buffer, asWgmma(analysis::makeMmaAccumulator(fp->M, fp->N, wp), "accumulator D"), where, t.span);
            if (A.buffer->scope == ir::Scope::Fragment)
                s.require(A.buffer, asWgmma(analysis::makeMmaAccumulator(fp->M, fp->K, {wp.wm, 1, true}), "A from registers"),
                          where + " (register A operand)", t.span);
            else
                s.require(A.buffer, analysis::makeWgmmaSharedLayout(fp->aTile), where, t.span);
            s.require(B.buffer, analysis::makeWgmmaSharedLayout(fp->bTile), where, t.span);
            return;
        }
        // Kept off the warpgroup order by a layout conflict: name the op that needed another layout.
        // (Not when the other side is this gemm itself: its own reason is the one above.)
        if (std::string c = s.wgmmaOrderConflict(t);
            !c.empty() && whyFragment.find("both keep mma.sync") != std::string::npos && c.rfind("T.gemm at " + LayoutSolver::lineOf(t.span) + " ", 0) != 0)
            whyFragment += " (here: " + c + ")";
        // An operand in a memory neither wgmma path reads (wgmmaOperandScopeWhy): one reason, and
        // the hint says how to get wgmma (not the TMA path's conditions).
        if (const std::string scopes = xform::wgmmaOperandScopeWhy(t, true); !scopes.empty() && whyFragment == scopes) {
            const bool regA = A.buffer->scope == ir::Scope::Fragment;
            // The operand it names (A or B; an accumulator outside registers gets its own words).
            const ir::BufferNode& op = (A.buffer->scope == ir::Scope::Shared || regA) ? *B.buffer : *A.buffer;
            s.note(t.span, "T.gemm stays on mma.sync (the sm_80 path; each T.copy's note says whether it takes TMA) on " + s.target().arch() + ": " +
                               (why == scopes || regA ? "" : why + "; and not wgmma on the sm_80 fragments: ") + scopes,
                   op.scope == ir::Scope::Shared
                       ? std::string("mma.sync is correct as it is; wgmma needs the accumulator in a T.alloc_fragment")
                       : "mma.sync is correct as it is; for wgmma, T.copy '" + op.name + "' into a T.alloc_shared tile and pass that tile to T.gemm");
            placeCoGemmAccumulator(s, t);
            return gemmLayoutsSm80(s, t);
        }
        // One reason when both wgmma paths decline for the same one (fp8 operands: "wgmma is used
        // for float16/bfloat16 ..." read twice, joined by "and not wgmma on the sm_80 fragments").
        s.note(t.span, "T.gemm stays on mma.sync (the sm_80 path; each T.copy's note says whether it takes TMA) on " + s.target().arch() + ": " + why +
                           (whyFragment == why ? std::string() : "; and not wgmma on the sm_80 fragments: " + whyFragment),
               whyFragment == why ? std::string() : tmaHint);
        placeCoGemmAccumulator(s, t);
        return gemmLayoutsSm80(s, t);
    }
    const int64_t M = (*cs)[0], N = (*cs)[1];
    const std::string where = "T.gemm at " + LayoutSolver::lineOf(t.span);
    s.annotate(t, {{"wgmma_warpgroups", int64_t(plan->warpgroups)}});
    s.require(C.buffer, analysis::makeWgmmaAccumulator(M, N, {plan->warpgroups, 1, N}), where, t.span);
    s.require(A.buffer, analysis::makeWgmmaSharedLayout(plan->a), where, t.span);
    s.require(B.buffer, analysis::makeWgmmaSharedLayout(plan->b), where, t.span);
}

}  // namespace ts::ops
