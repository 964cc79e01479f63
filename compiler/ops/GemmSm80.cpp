// T.gemm on the mma.sync path (GemmEngine::MmaSync: sm_80 and later; on sm_90a the gemms that
// do not take the wgmma path, GemmSm90.cpp): the block-level gemm_ss of resources/ts_device.cuh (ldmatrix + mma.sync of
// the target's atom over swizzled shared tiles), or gemm_rs when A is a register fragment in
// the accumulator layout (FlashAttention's P @ V); other register A operands are staged through
// a shared tile; and the layouts it needs (gemmLayoutsSm80, for infer-layouts). GemmOp.cpp
// picks these functions by Target::gemmEngine(). The block-gemm body (lowerBlockGemm,
// blockGemmLayouts) is shared with the MFMA engine (GemmMfma.cpp): both call the device header's
// gemm_ss<M, N, K, wm, wn, ...> over swizzled shared tiles, with the target's atom.
#include <sstream>

#include "compiler/analysis/GemmPartition.h"
#include "compiler/analysis/HwLayouts.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/Swizzle.h"
#include "compiler/analysis/UserLayouts.h"
#include "compiler/ops/GemmLowering.h"
#include "compiler/ops/GemmSubTile.h"
#include "compiler/ops/Registry.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::ops {
using namespace ts::ir;
using namespace ts::xform::lower;

Stmt lowerGemmSm80(Ctx& c, const TileOpNode& op, const Target& target) {
    return lowerBlockGemm(c, op, target, /*registerA=*/true);
}

Stmt lowerBlockGemm(Ctx& c, const TileOpNode& op, const Target& target, bool registerA) {
    Region A = op.region(0);
    const Region& C = op.region(2);
    // A may be a register fragment (gemm_rs: the FlashAttention P @ V, or staged); a register B
    // (KDA's chunk_bwd_intra: T.gemm(dA, kg_fragment, ...)) is staged through a shared tile.
    const bool regA = A.buffer->scope == Scope::Fragment, regB = op.region(1).buffer->scope == Scope::Fragment;
    if ((A.buffer->scope != Scope::Shared && !regA) || (op.region(1).buffer->scope != Scope::Shared && !regB)) {
        const Buffer& bad = op.region(1).buffer->scope != Scope::Shared && !regB ? op.region(1).buffer : A.buffer;
        c.error(op.span, "T.gemm: operand '" + bad->name + "' is in " + scopeName(bad->scope) +
                             " memory; this target reads A and B from shared memory or fragments",
                "copy the operand into a T.alloc_shared tile first");
        return nullptr;
    }
    std::vector<Stmt> stageB;
    Region stagedB = op.region(1);
    if (regB) {
        // Each thread stores its registers of B into a row-major shared tile (as stored: N x K
        // when transposed); insert-sync orders the stores before gemm_ss and the next stores after it.
        auto be0 = constShape(*stagedB.buffer);
        if (!be0 || be0->size() != 2 || constExtents(stagedB) != be0) {
            c.error(op.span, "T.gemm: a fragment B operand ('" + stagedB.buffer->name + "') must be a whole 2-D fragment",
                    "allocate the operand with the gemm's K x N shape");
            return nullptr;
        }
        std::vector<Range> ranges{{intImm(0), intImm((*be0)[0])}, {intImm(0), intImm((*be0)[1])}};
        Buffer tile = std::make_shared<BufferNode>(c.fresh(stagedB.buffer->name + "_tile"), stagedB.buffer->dtype,
                                                   std::vector<Expr>{intImm((*be0)[0]), intImm((*be0)[1])}, Scope::Shared, op.span);
        Region staged{tile, ranges, op.span};
        TileOpNode put(TileOpKind::Copy, {stagedB, staged}, {}, op.span);
        Stmt store = get(TileOpKind::Copy).lower(c, put, target);
        if (!store) return nullptr;
        stageB = {std::make_shared<AllocNode>(tile, nullptr, op.span), store};
        stagedB = staged;
    }
    Region B = stagedB;
    bool ta = attrBool(op.attrs, "transpose_A", false), tb = attrBool(op.attrs, "transpose_B", false);
    auto ae = squeezedExtents(A), be = squeezedExtents(B), ce = squeezedExtents(C);
    if (!ae || !be || !ce || ae->size() != 2 || be->size() != 2 || ce->size() != 2) {
        c.error(op.span, "T.gemm: A, B and C must be 2-D tiles with constant shapes");
        return nullptr;
    }
    int64_t M = (*ce)[0], N = (*ce)[1];
    int64_t K = ta ? (*ae)[0] : (*ae)[1];
    int64_t aM = ta ? (*ae)[1] : (*ae)[0], bK = tb ? (*be)[1] : (*be)[0], bN = tb ? (*be)[0] : (*be)[1];
    if (aM != M || bN != N || bK != K) {
        c.error(op.span, "T.gemm: shapes do not agree: A is " + std::to_string((*ae)[0]) + "x" + std::to_string((*ae)[1]) +
                             ", B is " + std::to_string((*be)[0]) + "x" + std::to_string((*be)[1]) + ", C is " + std::to_string(M) +
                             "x" + std::to_string(N) + (ta || tb ? " (with transposes)" : ""));
        return nullptr;
    }
    // k_pack is not read: TileLang uses it only for AMD MFMA operand fragments
    // (src/layout/gemm_layouts.cc makeGemmFragmentAB16x16CDNA); mma.sync atoms have no such
    // packing, so on CUDA it does not change the code.
    // Atom choice by dtype pair: the target's (analysis::selectMmaAtom's table, selectMfmaAtom's
    // on HIP); the device header's MmaAtom<T, TC> (ts_hip.h: mfma_16x16x16_f32) is the same table.
    std::string why;
    auto atom = B.buffer->dtype == A.buffer->dtype
                    ? target.mmaAtom(A.buffer->dtype, C.buffer->dtype, &why)
                    : std::nullopt;
    if (!atom) {
        c.error(op.span, "T.gemm: " + (why.empty() ? "A and B must have the same dtype" : why) + "; got A " +
                             std::string(dtypeName(A.buffer->dtype)) + ", B " + std::string(dtypeName(B.buffer->dtype)) +
                             ", C " + std::string(dtypeName(C.buffer->dtype)),
                "allocate the accumulator with a supported dtype (T.alloc_fragment(shape, accum_dtype))");
        return nullptr;
    }
    if (K % atom->k != 0) {
        c.error(op.span, "T.gemm: K=" + std::to_string(K) + " must be a multiple of " + std::to_string(atom->k) + " (" +
                             std::string(dtypeName(A.buffer->dtype)) + " operands use " +
                             (target.isHip() ? atom->ptx : "mma.sync m16n8k" + std::to_string(atom->k)) + ")",
                "use block_K = " + std::to_string(2 * atom->k) + " or " + std::to_string(4 * atom->k));
        return nullptr;
    }
    // A shared operand that is a sub-region of its tile (DeepSeek V3.2 sparse MLA's
    // Q_shared[:, :D] and Q_shared[:, D:], MLA decode's KV_shared[stage, :, :dim // 2]) is read
    // in place: gemm_ss gets the 2-D matrix's base, its stored row length and the origin's
    // offset (GemmSubTile). Where that is illegal it is first copied into a tile of its own
    // (shared -> shared, vectorized; insert-sync orders it) and a note says why.
    GemmSubTile view[2];
    for (int i = 0; i < 2; ++i) {
        Region* r = i == 0 ? &A : &B;
        if (r->buffer->scope == Scope::Fragment) continue;  // whole fragments only (infer-layouts)
        auto shape = constShape(*r->buffer);
        size_t n = r->ranges.size();
        bool whole = shape && n >= 2;
        for (size_t d = n >= 2 ? n - 2 : 0; whole && d < n; ++d)
            whole = constInt(r->ranges[d].min) == 0 && constInt(r->ranges[d].extent) == (*shape)[d];
        if (whole) continue;
        auto ext = squeezedExtents(*r);
        if (!ext || ext->size() != 2) {
            c.error(op.span, "T.gemm: operand '" + r->buffer->name + "' must be a 2-D slice of a shared tile with constant extents",
                    "slice the tile with compile-time sizes");
            return nullptr;
        }
        std::string why;
        auto pl = c.layoutOf(r->buffer->name);
        if (pl && (pl->family != "shared" || pl->padElems != 0))
            why = "its tile has the layout " + pl->description + ", not a row-major or XOR-swizzled one";
        else if (auto v = gemmSubTile(*r, pl ? int(pl->swizzleBytes) : 0, target, &why)) {
            view[i] = *v;
            continue;
        }
        c.pass.diags.add({Severity::Note, op.span,
                          "T.gemm: operand '" + r->buffer->name + "' (a sub-region of the shared tile) is copied into a tile of its own: " +
                              why,
                          "slice at a 16-byte-aligned column with constant bounds to let the gemm read the tile in place",
                          "lower-tile-ops"});
        std::vector<Range> ranges{{intImm(0), intImm((*ext)[0])}, {intImm(0), intImm((*ext)[1])}};
        Buffer tile = std::make_shared<BufferNode>(c.fresh(r->buffer->name + "_slice"), r->buffer->dtype,
                                                   std::vector<Expr>{intImm((*ext)[0]), intImm((*ext)[1])}, Scope::Shared, op.span);
        Region staged{tile, ranges, op.span};
        TileOpNode put(TileOpKind::Copy, {*r, staged}, {}, op.span);
        Stmt store = get(TileOpKind::Copy).lower(c, put, target);
        if (!store) return nullptr;
        stageB.push_back(std::make_shared<AllocNode>(tile, nullptr, op.span));
        stageB.push_back(store);
        *r = staged;
    }
    const bool inPlace = view[0].base || view[1].base;
    // The four view arguments (ldA, offA, ldB, offB) only when an operand is read in place, so
    // the IR and code of whole-tile gemms are unchanged.
    auto viewArgs = [&](std::vector<Expr> args, bool withA) {
        if (!inPlace) return args;
        for (int i = 0; i < 2; ++i) {
            args.push_back(intImm(i == 0 && !withA ? 0 : view[i].ld));
            args.push_back(intImm(i == 0 && !withA ? 0 : view[i].offset));
        }
        return args;
    };
    auto& cf = c.frags.at(C.buffer.get());
    int64_t wm = attrInt(op.attrs, "warp_m", 0), wn = attrInt(op.attrs, "warp_n", 0);
    auto swz = [&](const Region& r) {
        auto l = c.layoutOf(r.buffer->name);
        return int64_t(l ? l->swizzleBytes : 0);
    };
    auto base = [&](const Region& r) {
        const GemmSubTile& v = view[&r == &A ? 0 : 1];
        return v.base ? v.base : regionBase(r);
    };
    std::vector<Stmt> out = stageB;
    if (attrBool(op.attrs, "clear_accum", false)) out.push_back(clearAccumulator(c, cf, C.buffer->dtype, op.span));
    if (regA) {
        auto& af = c.frags.at(A.buffer.get());
        // gemm_rs needs the registers laid out as the accumulator of an M x K tile on this gemm's
        // warp rows (infer-layouts requires it when the grid has one warp column). Otherwise each
        // thread puts its elements into a row-major shared tile (as stored: K x M when transposed)
        // and the gemm reads that tile (insert-sync orders the stores before gemm_ss and the next
        // stores after it).
        auto want = analysis::makeMmaAccumulator(M, K, {int(wm), 1});
        // ts::gemm_rs packs registers into m16n8k16 fp16/bf16 fragments with an f32 accumulator;
        // the other atoms (Target::mmaAtom) take the shared-tile route too.
        // Without gemm_rs (the MFMA engine) every register A operand is staged.
        const bool rsAtom = registerA && atom->k == 16 && C.buffer->dtype == DType::Float32;
        if (wn != 1 || ta || !rsAtom || !analysis::sameMapping(*af.layout, *want)) {
            const int64_t rows = ta ? K : M, cols = ta ? M : K;  // A as stored (K x M when transposed)
            std::vector<Range> ranges{{intImm(0), intImm(rows)}, {intImm(0), intImm(cols)}};
            Buffer tile = std::make_shared<BufferNode>(c.fresh(A.buffer->name + "_tile"), A.buffer->dtype,
                                                       std::vector<Expr>{intImm(rows), intImm(cols)}, Scope::Shared, op.span);
            Region staged{tile, ranges, op.span};
            TileOpNode put(TileOpKind::Copy, {A, staged}, {}, op.span);
            Stmt store = get(TileOpKind::Copy).lower(c, put, target);
            if (!store) return nullptr;
            out.insert(out.begin(), store);
            out.insert(out.begin(), std::make_shared<AllocNode>(tile, nullptr, op.span));
            out.push_back(intrinsicStmt(intrin::kGemmSS,
                                        viewArgs({addressOf(tile, {intImm(0), intImm(0)}), base(B), addressOf(cf.regs, {intImm(0)}),
                                                  intImm(M), intImm(N), intImm(K), intImm(wm), intImm(wn), boolImm(ta), boolImm(tb),
                                                  intImm(0), intImm(swz(B))},
                                                 false),
                                        op.span));
            return seq(out, op.span);
        }
        out.push_back(intrinsicStmt(intrin::kGemmRS,
                                    viewArgs({addressOf(af.regs, {intImm(0)}), base(B), addressOf(cf.regs, {intImm(0)}), intImm(M),
                                              intImm(N), intImm(K), intImm(wm), intImm(wn), boolImm(tb), intImm(swz(B))},
                                             false),
                                    op.span));
        return seq(out, op.span);
    }
    out.push_back(intrinsicStmt(intrin::kGemmSS,
                                viewArgs({base(A), base(B), addressOf(cf.regs, {intImm(0)}), intImm(M), intImm(N), intImm(K),
                                          intImm(wm), intImm(wn), boolImm(ta), boolImm(tb), intImm(swz(A)), intImm(swz(B))},
                                         true),
                                op.span));
    return seq(out, op.span);
}

namespace {

// gemm_rs reads A (M x K) from registers laid out as the m16n8k16 accumulator of an M x K
// tile on the same warp rows (ts_device.cuh GemmRS): the C fragment of atoms (mi, 2kk) and
// (mi, 2kk+1) is the A fragment of k-step kk (PTX ISA §9.7.14.5.8), so a softmax'ed score
// accumulator feeds the next gemm without a trip through shared memory (FlashAttention-2).
// Each warp must then own whole rows of A: the warp grid must be wm x 1.
void fragmentOperandA(LayoutSolver& s, const TileOpNode& t, const Region& A, int64_t M, analysis::WarpPartition wp,
                      const std::string& where) {
    auto as = constExtents(A);
    if (!as || as->size() != 2) {
        s.error(t.span, "T.gemm: a fragment A operand ('" + A.buffer->name + "') must be a whole 2-D fragment",
                "allocate the operand with the gemm's M x K shape");
        return;
    }
    if (attrBool(t.attrs, "transpose_A", false)) return;  // K x M: staged through shared memory
    int64_t K = (*as)[1];
    // With several warp columns (wn > 1) each warp needs rows that no single register layout
    // gives it alone: lower-tile-ops stages A through a shared tile instead (gemm_ss), and A
    // keeps whatever layout its producer gives it.
    if (wp.wn == 1 && K % 16 == 0)
        s.require(A.buffer, analysis::makeMmaAccumulator(M, K, wp), where + " (register A operand)", t.span);
}

}  // namespace

void gemmLayoutsSm80(LayoutSolver& s, const TileOpNode& t) {
    blockGemmLayouts(s, t, {32, 8, "warp", "use threads=128 or 256", &analysis::makeMmaAccumulator, true});
}

void blockGemmLayouts(LayoutSolver& s, const TileOpNode& t, const BlockGemmGrid& grid) {
    using namespace ts::analysis;
    if (t.args.size() < 3 || !t.isRegion(0) || !t.isRegion(1) || !t.isRegion(2)) return;
    const Region &A = t.region(0), &B = t.region(1), &C = t.region(2);
    auto cs = constExtents(C);
    std::string where = "T.gemm at " + LayoutSolver::lineOf(t.span);
    if (C.buffer->scope != Scope::Fragment || !cs || cs->size() != 2) {
        s.error(t.span, "T.gemm: the accumulator '" + C.buffer->name + "' must be a 2-D fragment (T.alloc_fragment)",
                "allocate C with T.alloc_fragment((block_M, block_N), accum_dtype)");
        return;
    }
    int64_t M = (*cs)[0], N = (*cs)[1];
    const int64_t threads = s.threads();
    if (threads % grid.lanes != 0) {
        s.error(t.span, std::string("T.gemm needs whole ") + grid.unit + "s: threads=" + std::to_string(threads) +
                            " is not a multiple of " + std::to_string(grid.lanes),
                grid.threadsHint);
        return;
    }
    auto policy = parseGemmPolicy(attrStr(t.attrs, "policy", "Square")).value_or(GemmPolicy::Square);
    int warps = static_cast<int>(threads / grid.lanes);
    auto wp = partitionWarps(M, N, warps, policy);
    // partitionWarps tiles by mma.sync's 16x8 warp tiles; a wider atom (MFMA 16x16) needs whole
    // atoms per warp column as well.
    if (wp && (N / wp->wn) % grid.atomCols != 0) {
        s.error(t.span,
                "T.gemm: " + std::to_string(warps) + " " + grid.unit + "s tile N=" + std::to_string(N) + " into " +
                    std::to_string(N / wp->wn) + "-column tiles, not a multiple of the " +
                    std::to_string(grid.atomCols) + "-column atom",
                "use a block_N that is a multiple of " + std::to_string(grid.atomCols) + " per " + grid.unit +
                    " column, or fewer threads");
        return;
    }
    if (!wp) {
        std::ostringstream msg;
        msg << "T.gemm: " << warps << (warps == 1 ? " warp" : " warps") << " cannot tile M=" << M << ", N=" << N << " with policy "
            << gemmPolicyName(policy) << "; valid thread counts: " << validThreadCounts(M, N, policy);
        s.error(t.span, msg.str(),
                "each warp owns a multiple of 16x16 accumulator elements; change threads=, the block "
                "shape or the policy");
        return;
    }
    // An accumulator another gemm placed first (one on wgmma's fragment path keeps one warp
    // column; KDA's chunk_o.py adds a second, mma.sync gemm into the same O fragment): mma.sync
    // computes the same sums on any warp grid and the policy only arranges the warps, so this
    // gemm takes the grid of C's layout rather than failing on a conflict.
    std::string cBy;
    if (Layout cur = s.placed(C.buffer, &cBy)) {
        auto cwp = mmaWarpPartitionOf(*cur);
        if (cwp && !cwp->byWarpgroup && (cwp->wm != wp->wm || cwp->wn != wp->wn) && cwp->wm * cwp->wn == warps &&
            (N / cwp->wn) % grid.atomCols == 0 && sameMapping(*grid.accumulator(M, N, *cwp), *cur)) {
            s.note(t.span,
                   where + " runs its " + std::to_string(warps) + " warps as a " + std::to_string(cwp->wm) + "x" + std::to_string(cwp->wn) +
                       " grid, the layout " + cBy + " gave '" + C.buffer->name + "' (policy " + gemmPolicyName(policy) + " alone would give " +
                       std::to_string(wp->wm) + "x" + std::to_string(wp->wn) + ")",
                   "nothing to change: both gemms accumulate into the same registers");
            wp = cwp;
        }
    }
    // The warp grid travels with the op to its lowering (gemm_ss<M, N, K, wm, wn>).
    s.annotate(t, {{"warp_m", int64_t(wp->wm)}, {"warp_n", int64_t(wp->wn)}});
    s.require(C.buffer, grid.accumulator(M, N, *wp), where, t.span);
    if (A.buffer->scope == Scope::Fragment && grid.registerA) fragmentOperandA(s, t, A, M, *wp, where);
    for (const Region* op : {&A, &B}) {
        if (op->buffer->scope != Scope::Shared) continue;
        auto shape = constShape(*op->buffer);
        if (!shape || shape->size() < 2) continue;
        int64_t rowBytes = shape->back() * dtypeBytes(op->buffer->dtype);
        int64_t rows = 1;
        for (size_t d = 0; d + 1 < shape->size(); ++d) rows *= (*shape)[d];
        std::string by;
        Layout cur = s.placed(op->buffer, &by);
        if (!cur) s.require(op->buffer, makeSharedLayout(*shape, dtypeBytes(op->buffer->dtype), chooseSwizzleMode(rowBytes, rows)), where, t.span);
        // gemm_ss addresses its operands as row-major tiles with an XOR swizzle, nothing else.
        else if (cur->family != "shared" || cur->padElems != 0)
            s.error(t.span,
                    "conflicting layouts for shared buffer '" + op->buffer->name + "': " + by + " needs " +
                        cur->description + ", but " + where + " reads its operands as row-major or XOR-swizzled tiles",
                    "annotate the gemm operand with tilelang.layout.make_swizzled_layout, or copy it into a second "
                    "shared tile for the gemm");
    }
}

}  // namespace ts::ops
