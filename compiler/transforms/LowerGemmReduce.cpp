// Lowering of T.gemm (to the block-level gemm_ss of resources/ts_device.cuh: ldmatrix +
// mma.sync m16n8k16 over swizzled shared tiles; gemm_rs when A is a register fragment), T.fill/T.clear, T.reduce_* (per-thread
// partials, xor-shuffle all-reduce across the gc lanes of a row group, then shared memory across
// warps when a row spans several warps), T.atomic_*, and T.cumsum.
#include <limits>

#include "compiler/analysis/HwLayouts.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/UserLayouts.h"
#include "compiler/transforms/Hopper.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::xform::lower {
using namespace ts::ir;

Stmt lowerGemm(Ctx& c, const TileOpNode& op) {
    const Region &A = op.region(0), &B = op.region(1), &C = op.region(2);
    // sm_90a: infer-layouts chose wgmma (the accumulator's layout records it; Hopper.h).
    if (auto it = c.frags.find(C.buffer.get()); it != c.frags.end() && it->second.layout->family == "wgmma_c")
        return lowerWgmma(c, op);
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
    // Atom choice by dtype pair (compiler/analysis/HwLayouts.h); the device header's
    // MmaAtom<T, TC> is the same table.
    std::string why;
    auto atom = B.buffer->dtype == A.buffer->dtype
                    ? analysis::selectMmaAtom(A.buffer->dtype, C.buffer->dtype, &why)
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
        // the other atoms (selectMmaAtom) take the shared-tile route too.
        const bool rsAtom = atom->k == 16 && C.buffer->dtype == DType::Float32;
        if (wn != 1 || ta || !rsAtom || !analysis::sameMapping(*af.layout, *want)) {
            const int64_t rows = ta ? K : M, cols = ta ? M : K;  // A as stored (K x M when transposed)
            std::vector<Range> ranges{{intImm(0), intImm(rows)}, {intImm(0), intImm(cols)}};
            Buffer tile = std::make_shared<BufferNode>(c.fresh(A.buffer->name + "_tile"), A.buffer->dtype,
                                                       std::vector<Expr>{intImm(rows), intImm(cols)}, Scope::Shared, op.span);
            Region staged{tile, ranges, op.span};
            TileOpNode put(TileOpKind::Copy, {A, staged}, {}, op.span);
            Stmt store = lowerCopy(c, put);
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

Expr regionBase(const Region& r) {
    std::vector<Expr> idx;
    for (auto& rg : r.ranges) idx.push_back(rg.min);
    return addressOf(r.buffer, idx);
}

Stmt clearAccumulator(Ctx& c, const LoweredFragment& f, DType t, Span sp) {
    Var r = makeVar(c.fresh("r"), DType::Int32, sp);
    return forLoop(r, intImm(0), intImm(f.layout->localSize), ForKind::Unrolled, store(f.regs, {r}, cast(t, floatImm(0.0)), sp),
                   {{"thread_loop", true}}, sp);
}

Stmt lowerFill(Ctx& c, const TileOpNode& op) {
    const Region& dst = op.region(0);
    Expr value = cast(dst.buffer->dtype, std::get<Expr>(op.args.at(1)));
    if (auto it = c.frags.find(dst.buffer.get()); it != c.frags.end()) {
        Var r = makeVar(c.fresh("r"), DType::Int32, op.span);
        Stmt fill = forLoop(r, intImm(0), intImm(it->second.layout->localSize), ForKind::Unrolled,
                            store(it->second.regs, {r}, value, op.span), {{"thread_loop", true}}, op.span);
        if (Stmt wait = lowerWgmmaWait(c, it->second)) return seq({wait, fill}, op.span);  // sm_90a
        return fill;
    }
    auto ext = squeezedExtents(dst);
    if (!ext) {
        c.error(op.span, "T.fill: region extents must be constants");
        return nullptr;
    }
    int64_t total = 1;
    for (auto e : *ext) total *= e;
    bool perThread = dst.buffer->scope == Scope::Local;
    int64_t step = perThread ? 1 : c.threads;
    int64_t iters = (total + step - 1) / step;
    Var it = makeVar(c.fresh("v"), DType::Int32, op.span);
    Expr lin = perThread ? Expr(it) : add(mul(it, intImm(step)), c.tx);
    auto idx = regionIndex(dst, delinearize(lin, *ext));
    Stmt body = store(dst.buffer, idx, value, op.span);
    if (Expr in = inBounds(dst.buffer, idx)) body = ifThen(in, body, nullptr, op.span);
    if (total % step != 0) body = ifThen(lt(lin, intImm(total)), body, nullptr, op.span);
    return forLoop(it, intImm(0), intImm(iters), iters <= 16 ? ForKind::Unrolled : ForKind::Serial, body, {{"thread_loop", true}}, op.span);
}

Stmt lowerReduce(Ctx& c, const TileOpNode& op) {
    const Region &src = op.region(0), &dst = op.region(1);
    auto si = c.frags.find(src.buffer.get()), di = c.frags.find(dst.buffer.get());
    if (si == c.frags.end() || di == c.frags.end()) {
        c.error(op.span, "T.reduce: source and destination must be fragments (T.alloc_fragment)",
                "copy shared data into a fragment first");
        return nullptr;
    }
    if (si->second.layout->family == "mma_c") return lowerReduceAccumulator(c, op, si->second, di->second);
    auto p = analysis::blockParamsOf(*si->second.layout);
    if (!p) {
        c.error(op.span, "T.reduce: unsupported source layout '" + si->second.layout->description + "'");
        return nullptr;
    }
    std::string rop = attrStr(op.attrs, "op", "sum");
    bool clear = attrBool(op.attrs, "clear", true);
    DType acct = dst.buffer->dtype;
    int64_t cpt = p->colChunksPerThread(), perRow = cpt * p->vec, rpt = p->rowsPerThread();
    Span sp = op.span;
    Buffer acc = std::make_shared<BufferNode>(c.fresh("red"), acct, std::vector<Expr>{intImm(1)}, Scope::Local, sp);
    Var rr = makeVar(c.fresh("rr"), DType::Int32, sp), cc = makeVar(c.fresh("rc"), DType::Int32, sp);
    Expr slot = add(mul(rr, intImm(perRow)), cc);
    Expr col = add(add(mul(floormod(floordiv(slot, intImm(p->vec)), intImm(cpt)), intImm(p->vec * p->gc)),
                       mul(floormod(c.tx, intImm(p->gc)), intImm(p->vec))),
                   floormod(slot, intImm(p->vec)));
    Expr x = cast(acct, load(si->second.regs, {slot}, sp));
    if (rop == "absmax" || rop == "abssum") x = call("abs", {x}, acct, sp);
    Stmt accum = store(acc, {intImm(0)}, reduceCombine(rop, load(acc, {intImm(0)}), x), sp);
    // Padded slots (a row width not a multiple of vec*gc, or fewer rows than row groups) were
    // never written: skip them rather than read them (row of slot rr = rr*gr + tx/gc).
    Expr valid;
    if (p->cols % (p->vec * p->gc) != 0) valid = lt(col, intImm(p->cols));
    if (p->rows % p->gr != 0)
        valid = logicalAnd(
            valid, lt(add(mul(rr, intImm(p->gr)), floordiv(c.tx, intImm(p->gc))), intImm(p->rows)));
    if (valid) accum = ifThen(valid, accum, nullptr, sp);
    std::vector<Stmt> row{store(acc, {intImm(0)}, reduceIdentity(rop, acct), sp),
                          forLoop(cc, intImm(0), intImm(perRow), ForKind::Unrolled, accum,
                                  {{"thread_loop", true}}, sp)};
    std::string shfl = rop == "max" || rop == "absmax" ? "max" : rop == "min" ? "min" : "sum";
    int64_t lanes = std::min<int64_t>(p->gc, 32);
    if (lanes > 1)
        row.push_back(store(acc, {intImm(0)},
                            call(intrin::kWarpAllreduce, {std::make_shared<StrImmNode>(shfl, sp), load(acc, {intImm(0)}), intImm(lanes)}, acct, sp),
                            sp));
    std::vector<Stmt> pre;
    if (p->gc > 32) {
        // A row spans gc/32 warps: lane 0 of each warp publishes its partial, then every thread
        // of the row group combines them. Barriers are block-uniform (the rr loop is).
        int64_t wpr = p->gc / 32;
        Buffer scratch = std::make_shared<BufferNode>(c.fresh("red_smem"), acct, std::vector<Expr>{intImm(p->gr * wpr)}, Scope::Shared, sp);
        pre.push_back(std::make_shared<AllocNode>(scratch, nullptr, sp));
        Expr group = floordiv(c.tx, intImm(p->gc)), warpInRow = floordiv(floormod(c.tx, intImm(p->gc)), intImm(32));
        row.push_back(ifThen(binary(BinOp::Eq, floormod(c.tx, intImm(32)), intImm(0)),
                             store(scratch, {add(mul(group, intImm(wpr)), warpInRow)}, load(acc, {intImm(0)}), sp), nullptr, sp));
        row.push_back(intrinsicStmt(intrin::kSyncThreads, {}, sp));
        Var w = makeVar(c.fresh("w"), DType::Int32, sp);
        row.push_back(store(acc, {intImm(0)}, reduceIdentity(rop, acct), sp));
        row.push_back(forLoop(w, intImm(0), intImm(wpr), ForKind::Unrolled,
                              store(acc, {intImm(0)}, reduceCombine(rop, load(acc, {intImm(0)}), load(scratch, {add(mul(group, intImm(wpr)), w)})), sp),
                              {{"thread_loop", true}}, sp));
        row.push_back(intrinsicStmt(intrin::kSyncThreads, {}, sp));
    }
    Expr result = load(acc, {intImm(0)});
    if (!clear) result = reduceCombine(rop, cast(acct, load(di->second.regs, {rr})), result);
    row.push_back(store(di->second.regs, {rr}, result, sp));
    pre.push_back(std::make_shared<AllocNode>(acc, nullptr, sp));
    pre.push_back(forLoop(rr, intImm(0), intImm(rpt), ForKind::Unrolled, seq(row, sp), {}, sp));
    return seq(pre, sp);
}

Stmt lowerAtomic(Ctx& c, const TileOpNode& op) {
    const Region& dst = op.region(0);
    std::string aop = attrStr(op.attrs, "op", "add");
    if (!op.isRegion(1)) {
        // Scalar atomic on one element: one thread per block would change the meaning (every
        // thread executes T.atomic_add(x[0], v) in TileLang), so every thread issues it.
        // Out-of-bounds destinations are skipped, as T.copy skips them (and as the interpreter does).
        std::vector<Expr> idx;
        for (auto& rg : dst.ranges) idx.push_back(rg.min);
        Stmt s = intrinsicStmt(intrin::kAtomic, {std::make_shared<StrImmNode>(aop, op.span), addressOf(dst.buffer, idx),
                                                 cast(dst.buffer->dtype, std::get<Expr>(op.args[1]))}, op.span);
        Expr in = inBounds(dst.buffer, idx);
        return in ? ifThen(in, s, nullptr, op.span) : s;
    }
    const Region& src = op.region(1);
    auto ext = squeezedExtents(dst);
    if (!ext || c.frags.count(dst.buffer.get())) {
        c.error(op.span, "T.atomic_" + aop + ": the destination must be a global or shared region with constant shape");
        return nullptr;
    }
    if (auto it = c.frags.find(src.buffer.get()); it != c.frags.end()) {
        const LayoutNode& L = *it->second.layout;
        Var r = makeVar(c.fresh("r"), DType::Int32, op.span);
        std::unordered_map<const VarNode*, Expr> inv{{L.invThread.get(), c.tx}, {L.invLocal.get(), r}};
        std::vector<Expr> sq;
        Expr guard;
        auto shape = constShape(*src.buffer);
        for (size_t d = 0; d < L.inverse.size(); ++d) {
            Expr e = substitute(L.inverse[d], inv);
            if ((*shape)[d] != 1) sq.push_back(e);
            guard = logicalAnd(guard, lt(e, intImm((*shape)[d])));
        }
        auto dIdx = regionIndex(dst, sq);
        guard = logicalAnd(guard, inBounds(dst.buffer, dIdx));
        Stmt body = intrinsicStmt(intrin::kAtomic, {std::make_shared<StrImmNode>(aop, op.span), addressOf(dst.buffer, dIdx),
                                                    cast(dst.buffer->dtype, load(it->second.regs, {r}))}, op.span);
        // Replicated values would be added once per copy: only the first holder adds.
        if (L.replicate > 1) guard = logicalAnd(guard, isFirstHolder(c, L, r));
        if (guard) body = ifThen(guard, body, nullptr, op.span);
        return forLoop(r, intImm(0), intImm(L.localSize), ForKind::Unrolled, body, {{"thread_loop", true}}, op.span);
    }
    int64_t total = 1;
    for (auto e : *ext) total *= e;
    int64_t iters = (total + c.threads - 1) / c.threads;
    Var it = makeVar(c.fresh("v"), DType::Int32, op.span);
    Expr lin = add(mul(it, intImm(c.threads)), c.tx);
    auto sq = delinearize(lin, *ext);
    auto dIdx = regionIndex(dst, sq), sIdx = regionIndex(src, sq);
    Stmt body = intrinsicStmt(intrin::kAtomic, {std::make_shared<StrImmNode>(aop, op.span), addressOf(dst.buffer, dIdx),
                                                cast(dst.buffer->dtype, load(src.buffer, sIdx))}, op.span);
    Expr guard = logicalAnd(inBounds(dst.buffer, dIdx), inBounds(src.buffer, sIdx));
    if (total % c.threads != 0) guard = logicalAnd(lt(lin, intImm(total)), guard);
    if (guard) body = ifThen(guard, body, nullptr, op.span);
    return forLoop(it, intImm(0), intImm(iters), iters <= 16 ? ForKind::Unrolled : ForKind::Serial, body, {{"thread_loop", true}}, op.span);
}

Stmt lowerCumsum(Ctx& c, const TileOpNode& op) {
    const Region &src = op.region(0), &dst = op.region(1);
    if (src.buffer->scope != Scope::Shared || dst.buffer->scope != Scope::Shared) {
        c.error(op.span, "T.cumsum: only shared-memory tiles are supported on this target yet", "copy the tile into T.alloc_shared first");
        return nullptr;
    }
    auto ext = squeezedExtents(src);
    if (!ext || ext->empty() || ext->size() > 2) {
        c.error(op.span, "T.cumsum: 1-D or 2-D constant-shape tiles only");
        return nullptr;
    }
    // `dim` counts the region's axes as written; the squeezed extents drop unit axes, so
    // T.cumsum(buf_1xN, dim=1) scans the squeezed axis 0 (was read as axis 1: no scan at all).
    const int64_t rank = static_cast<int64_t>(src.ranges.size());
    int64_t dim = attrInt(op.attrs, "dim", 0);
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank) {
        c.error(op.span, "T.cumsum: dim " + std::to_string(attrInt(op.attrs, "dim", 0)) + " is outside the tile's " +
                             std::to_string(rank) + " dimensions");
        return nullptr;
    }
    int64_t sqDim = 0;
    for (int64_t a = 0; a < dim; ++a)
        if (constInt(src.ranges[a].extent).value_or(0) != 1) ++sqDim;
    if (constInt(src.ranges[dim].extent).value_or(0) == 1) {
        c.error(op.span, "T.cumsum: the scanned dimension " + std::to_string(dim) + " has extent 1 (the scan is a copy)",
                "use T.copy, or scan along the other dimension");
        return nullptr;
    }
    dim = sqDim;
    bool reverse = attrBool(op.attrs, "reverse", false);
    int64_t len = (*ext)[dim], lines = ext->size() == 2 ? (*ext)[1 - dim] : 1;
    // One thread per line scans sequentially: simple and exact; lines are spread over threads.
    Span sp = op.span;
    Var it = makeVar(c.fresh("v"), DType::Int32, sp), k = makeVar(c.fresh("k"), DType::Int32, sp);
    Expr line = add(mul(it, intImm(c.threads)), c.tx);
    Buffer acc = std::make_shared<BufferNode>(c.fresh("scan"), dst.buffer->dtype, std::vector<Expr>{intImm(1)}, Scope::Local, sp);
    Expr pos = reverse ? sub(intImm(len - 1), k) : Expr(k);
    std::vector<Expr> sq = ext->size() == 2 ? (dim == 0 ? std::vector<Expr>{pos, line} : std::vector<Expr>{line, pos}) : std::vector<Expr>{pos};
    auto sIdx = regionIndex(src, sq), dIdx = regionIndex(dst, sq);
    Stmt step = seq({store(acc, {intImm(0)}, add(load(acc, {intImm(0)}), cast(dst.buffer->dtype, load(src.buffer, sIdx))), sp),
                     store(dst.buffer, dIdx, load(acc, {intImm(0)}), sp)}, sp);
    Stmt body = seq({store(acc, {intImm(0)}, cast(dst.buffer->dtype, intImm(0)), sp),
                     forLoop(k, intImm(0), intImm(len), ForKind::Serial, step, {{"thread_loop", true}}, sp)}, sp);
    body = ifThen(lt(line, intImm(lines)), body, nullptr, sp);
    int64_t iters = (lines + c.threads - 1) / c.threads;
    return seq({std::make_shared<AllocNode>(acc, nullptr, sp),
                intrinsicStmt(intrin::kSyncThreads, {}, sp),
                forLoop(it, intImm(0), intImm(iters), ForKind::Serial, body, {{"thread_loop", true}}, sp)}, sp);
}

}  // namespace ts::xform::lower
