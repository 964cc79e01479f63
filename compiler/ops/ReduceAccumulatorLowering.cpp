// Lowering of T.reduce_*(acc, row, dim=1) where `acc` is an mma.sync m16n8k16 accumulator
// (analysis::makeMmaAccumulator, M x N over a wm x wn warp grid) and `row` its mma_c_rows
// companion -- the online-softmax step of FlashAttention (row max / row sum of the scores).
//
// Where row i lives (PTX ISA §9.7.14.5.8, C fragment: lane = 4*(i%8) + (j%8)/2, register
// e = (j%2) + 2*((i%16)/8)): in warp-grid row i/mw (mw = M/wm), atom row mi = (i%mw)/16, half
// h = (i%16)/8, in the 4 lanes of quad g = i%8 of each of the wn warps of that grid row. Each
// thread holds 2*NI elements of each of its rows (NI = N/wn/8 atoms across, 2 columns each).
// So, for each of a thread's 2*MI row slots rr = 2*mi + h:
//   1. per-thread partial over registers (mi*NI + ni)*4 + 2*h + e, ni < NI, e < 2;
//   2. butterfly over the quad: xor 2 then xor 1 (ts::warp_allreduce<Op, 4>: aligned groups of
//      4 lanes are exactly the quads), after which all 4 lanes hold the warp's row value;
//   3. wn > 1: lane 0 of each quad publishes its warp's value in shared memory at
//      [row*wn + warp column], a barrier, every holder combines the wn values, a barrier (the
//      scratch may be rewritten by the next iteration of an enclosing loop).
// The result lands in register rr of the mma_c_rows fragment, replicated on all 4*wn holders,
// which is what a following T.Parallel(i, j) over the accumulator reads as row[i]. In the
// warpgroup warp order of the wgmma fragment path (analysis::WarpPartition::byWarpgroup) only the
// rows of atom row mi and the warp column of a warp differ: (w/4)/wn*4*mw + 64*mi + 16*(w%4), (w/4)%wn.
//
// The same three steps reduce a v_mfma_f32_16x16x16f16 accumulator (HIP, gfx90a;
// analysis::makeMfma16Layout 'C' and its mfma_c_rows companion, HwLayouts.h): with 64-lane waves,
// row i of a wave's tile is item i%4 of atom row (i%rw)/16 in the 16 lanes 16*((i%16)/4)..+15,
// each holding CI = N/wn/16 elements of it (one per atom column); so 4*RI row slots, a partial
// over the CI atoms, a butterfly over aligned groups of 16 lanes (xor 8, 4, 2, 1), and lane 0 of
// each group publishes for the wn > 1 combine.
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/UserLayouts.h"
#include "compiler/ops/ReduceLowering.h"

namespace ts::xform::lower {
using namespace ts::ir;

namespace {
// Where a row of the accumulator lives: per thread, `slots` row slots of `perSlot` registers each;
// a row's holders in one wave are an aligned group of `rowLanes` lanes.
struct AccRows {
    bool mfma = false;
    int64_t waveSize = 32, rowLanes = 4, rowsPerWave = 0, slotsPerAtom = 2, slots = 0, perSlot = 0, CI = 0;
};
AccRows shapeOf(bool mfma, int64_t M, int64_t N, int64_t wm, int64_t wn) {
    AccRows g;
    g.mfma = mfma;
    g.rowsPerWave = M / wm;
    if (mfma) {  // v_mfma_f32_16x16x16f16 C: 16x16 atoms, 4 rows (items) per lane
        g.waveSize = 64, g.rowLanes = 16, g.slotsPerAtom = 4;
        g.CI = N / wn / 16;
        g.slots = g.rowsPerWave / 16 * 4, g.perSlot = g.CI;
    } else {     // mma.sync m16n8k16 C: 16x8 atoms, 2 rows x 2 columns per lane
        g.CI = N / wn / 8;
        g.slots = g.rowsPerWave / 16 * 2, g.perSlot = 2 * g.CI;
    }
    return g;
}
}  // namespace

Stmt lowerReduceAccumulator(Ctx& c, const TileOpNode& op, const LoweredFragment& src, const LoweredFragment& dst) {
    const LayoutNode& L = *src.layout;
    Span sp = op.span;
    int64_t dim = attrInt(op.attrs, "dim", -1);
    if (dim < 0) dim += 2;
    Layout rows = analysis::rowCompanion(L);
    const auto wpOf = analysis::mmaWarpPartitionOf(L);  // mma_c: its warp order too
    if (dim != 1 || L.familyParams.size() < 4 || (L.family == "mma_c" && !wpOf) || !rows) {
        c.error(sp, "T.reduce: an mma accumulator fragment can only be reduced along its last dimension (dim=1)",
                "reduce the rows (dim=1), or copy the accumulator through a shared tile into a fragment of its own");
        return nullptr;
    }
    if (!analysis::sameMapping(*dst.layout, *rows)) {
        c.error(sp, "T.reduce: the destination '" + dst.regs->name + "' must hold the accumulator's row values (" +
                        rows->description + "), but its layout is " + dst.layout->description,
                "reduce into a fresh T.alloc_fragment([block_M], dtype)");
        return nullptr;
    }
    const int64_t M = L.familyParams[0], N = L.familyParams[1], wm = L.familyParams[2], wn = L.familyParams[3];
    const AccRows g = shapeOf(L.family == "mfma_c", M, N, wm, wn);
    const bool byWarpgroup = wpOf && wpOf->byWarpgroup;  // rows of atom row mi: WarpPartition's warpgroup order
    const int64_t slots = g.slots;
    std::string rop = attrStr(op.attrs, "op", "sum");
    const bool nanProp = reduceNanPropagate(op.attrs);
    bool clear = attrBool(op.attrs, "clear", true);
    DType acct = dst.regs->dtype;
    std::string shfl = reduceShuffleOp(rop, nanProp);

    // 1 + 2: partial[rr] for every row slot, all-reduced over the quad.
    Buffer part = std::make_shared<BufferNode>(c.fresh("red"), acct, std::vector<Expr>{intImm(slots)}, Scope::Local, sp);
    Var rr = makeVar(c.fresh("rr"), DType::Int32, sp), cc = makeVar(c.fresh("rc"), DType::Int32, sp);
    Expr reg = g.mfma ? add(mul(add(mul(floordiv(rr, intImm(4)), intImm(g.CI)), cc), intImm(4)), floormod(rr, intImm(4)))
                      : add(add(mul(add(mul(floordiv(rr, intImm(2)), intImm(g.CI)), floordiv(cc, intImm(2))), intImm(4)),
                                mul(floormod(rr, intImm(2)), intImm(2))),
                            floormod(cc, intImm(2)));
    Expr x = cast(acct, load(src.regs, {reg}, sp));
    if (rop == "absmax" || rop == "abssum") x = call("abs", {x}, acct, sp);
    std::vector<Stmt> perSlot{
        store(part, {rr}, reduceIdentity(rop, acct), sp),
        forLoop(cc, intImm(0), intImm(g.perSlot), ForKind::Unrolled, store(part, {rr}, reduceCombine(rop, load(part, {rr}), x, nanProp), sp),
                {{"thread_loop", true}}, sp),
        store(part, {rr},
              call(intrin::kWarpAllreduce, {std::make_shared<StrImmNode>(shfl, sp), load(part, {rr}), intImm(g.rowLanes)}, acct, sp), sp)};
    std::vector<Stmt> out{std::make_shared<AllocNode>(part, nullptr, sp),
                          forLoop(rr, intImm(0), intImm(slots), ForKind::Unrolled, seq(perSlot, sp), {{"thread_loop", true}}, sp)};

    // 3: across the wn warps of a warp-grid row, through shared memory.
    if (wn > 1) {
        Buffer scratch = std::make_shared<BufferNode>(c.fresh("red_smem"), acct, std::vector<Expr>{intImm(M * wn)}, Scope::Shared, sp);
        out.insert(out.begin(), std::make_shared<AllocNode>(scratch, nullptr, sp));
        Expr warp = floordiv(c.tx, intImm(g.waveSize)), lane = floormod(c.tx, intImm(g.waveSize));
        // The warp column of this thread's warp, and the row companion's inverse: the row of slot `slot`.
        Expr warpCol = byWarpgroup ? floormod(floordiv(warp, intImm(4)), intImm(wn)) : floormod(warp, intImm(wn));
        auto rowOf = [&](const Expr& slot) {
            Expr base = byWarpgroup ? add(add(mul(floordiv(floordiv(warp, intImm(4)), intImm(wn)), intImm(4 * g.rowsPerWave)),
                                              mul(floordiv(slot, intImm(2)), intImm(64))),
                                          mul(floormod(warp, intImm(4)), intImm(16)))
                                    : add(mul(floordiv(warp, intImm(wn)), intImm(g.rowsPerWave)), mul(floordiv(slot, intImm(g.slotsPerAtom)), intImm(16)));
            if (g.mfma) return add(add(base, mul(floordiv(lane, intImm(16)), intImm(4))), floormod(slot, intImm(4)));
            return add(add(base, floordiv(lane, intImm(4))), mul(floormod(slot, intImm(2)), intImm(8)));
        };
        Var r1 = makeVar(c.fresh("rr"), DType::Int32, sp), r2 = makeVar(c.fresh("rr"), DType::Int32, sp);
        Var w = makeVar(c.fresh("w"), DType::Int32, sp);
        Stmt publish = ifThen(binary(BinOp::Eq, floormod(lane, intImm(g.rowLanes)), intImm(0)),
                              store(scratch, {add(mul(rowOf(r1), intImm(wn)), warpCol)}, load(part, {r1}), sp),
                              nullptr, sp);
        out.push_back(forLoop(r1, intImm(0), intImm(slots), ForKind::Unrolled, publish, {{"thread_loop", true}}, sp));
        out.push_back(intrinsicStmt(intrin::kSyncThreads, {}, sp));
        Stmt gather = seq({store(part, {r2}, reduceIdentity(rop, acct), sp),
                           forLoop(w, intImm(0), intImm(wn), ForKind::Unrolled,
                                   store(part, {r2}, reduceCombine(rop, load(part, {r2}), load(scratch, {add(mul(rowOf(r2), intImm(wn)), w)}), nanProp), sp),
                                   {{"thread_loop", true}}, sp)},
                          sp);
        out.push_back(forLoop(r2, intImm(0), intImm(slots), ForKind::Unrolled, gather, {{"thread_loop", true}}, sp));
        out.push_back(intrinsicStmt(intrin::kSyncThreads, {}, sp));
    }

    Var r3 = makeVar(c.fresh("rr"), DType::Int32, sp);
    Expr result = load(part, {r3});
    if (!clear) result = reduceCombine(rop, cast(acct, load(dst.regs, {r3})), result, nanProp);
    out.push_back(forLoop(r3, intImm(0), intImm(slots), ForKind::Unrolled, store(dst.regs, {r3}, result, sp), {{"thread_loop", true}}, sp));
    return seq(out, sp);
}

}  // namespace ts::xform::lower
