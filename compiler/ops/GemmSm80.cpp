// T.gemm on the mma.sync path (GemmEngine::MmaSync: sm_80 and later; on sm_90a the gemms that
// do not take the wgmma path, GemmSm90.cpp): the block-level gemm_ss of resources/ts_device.cuh (ldmatrix + mma.sync of
// the target's atom over swizzled shared tiles), or gemm_rs when A is a register fragment in
// the accumulator layout (FlashAttention's P @ V); other register A operands are staged through
// a shared tile. GemmOp.cpp picks this function by Target::gemmEngine().
#include "compiler/analysis/HwLayouts.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/UserLayouts.h"
#include "compiler/ops/GemmLowering.h"
#include "compiler/ops/Registry.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::ops {
using namespace ts::ir;
using namespace ts::xform::lower;

Stmt lowerGemmSm80(Ctx& c, const TileOpNode& op, const Target& target) {
    const Region &A = op.region(0), &B = op.region(1), &C = op.region(2);
    // A may be a register fragment (gemm_rs: the FlashAttention P @ V); B must be in shared memory.
    const bool regA = A.buffer->scope == Scope::Fragment;
    if ((A.buffer->scope != Scope::Shared && !regA) || B.buffer->scope != Scope::Shared) {
        const Buffer& bad = B.buffer->scope != Scope::Shared ? B.buffer : A.buffer;
        c.error(op.span, "T.gemm: operand '" + bad->name + "' is in " + scopeName(bad->scope) +
                             " memory; this target reads B from shared memory and A from shared memory or a fragment",
                "copy the operand into a T.alloc_shared tile first");
        return nullptr;
    }
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
    // Atom choice by dtype pair: the target's (analysis::selectMmaAtom's table); the device
    // header's MmaAtom<T, TC> is the same table.
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
                             std::string(dtypeName(A.buffer->dtype)) + " operands use mma.sync m16n8k" +
                             std::to_string(atom->k) + ")",
                "use block_K = " + std::to_string(2 * atom->k) + " or " + std::to_string(4 * atom->k));
        return nullptr;
    }
    // gemm_ss addresses whole tiles: the regions must cover the tiles' two inner dims.
    for (const Region* r : {&A, &B}) {
        if (r->buffer->scope == Scope::Fragment) continue;  // whole fragments only (infer-layouts)
        auto shape = constShape(*r->buffer);
        size_t n = r->ranges.size();
        bool whole = shape && n >= 2;
        for (size_t d = n >= 2 ? n - 2 : 0; whole && d < n; ++d)
            whole = constInt(r->ranges[d].min) == 0 && constInt(r->ranges[d].extent) == (*shape)[d];
        if (!whole) {
            c.error(op.span, "T.gemm: operand '" + r->buffer->name + "' must be a whole shared tile (no sub-slices)",
                    "allocate a tile of exactly the gemm's shape");
            return nullptr;
        }
    }
    auto& cf = c.frags.at(C.buffer.get());
    int64_t wm = attrInt(op.attrs, "warp_m", 0), wn = attrInt(op.attrs, "warp_n", 0);
    auto swz = [&](const Region& r) {
        auto l = c.layoutOf(r.buffer->name);
        return int64_t(l ? l->swizzleBytes : 0);
    };
    auto base = regionBase;
    std::vector<Stmt> out;
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
        const bool rsAtom = atom->k == 16 && C.buffer->dtype == DType::Float32;
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
                                        {addressOf(tile, {intImm(0), intImm(0)}), base(B), addressOf(cf.regs, {intImm(0)}), intImm(M),
                                         intImm(N), intImm(K), intImm(wm), intImm(wn), boolImm(ta), boolImm(tb), intImm(0),
                                         intImm(swz(B))},
                                        op.span));
            return seq(out, op.span);
        }
        out.push_back(intrinsicStmt(intrin::kGemmRS,
                                    {addressOf(af.regs, {intImm(0)}), base(B), addressOf(cf.regs, {intImm(0)}), intImm(M), intImm(N),
                                     intImm(K), intImm(wm), intImm(wn), boolImm(tb), intImm(swz(B))},
                                    op.span));
        return seq(out, op.span);
    }
    out.push_back(intrinsicStmt(intrin::kGemmSS,
                                {base(A), base(B), addressOf(cf.regs, {intImm(0)}), intImm(M), intImm(N), intImm(K), intImm(wm),
                                 intImm(wn), boolImm(ta), boolImm(tb), intImm(swz(A)), intImm(swz(B))},
                                op.span));
    return seq(out, op.span);
}

}  // namespace ts::ops
