// Lowering of T.copy (the copy op's TileOp::lower, CopyOp.cpp). Three shapes of code (fragment -> fragment: register to register for one
// layout, else through a shared tile):
//  - a fragment on either side: each thread walks its registers through the fragment layout's
//    inverse (thread, register) -> element, guarded for padding and global bounds;
//  - shared/global on both sides: the region is cut into 16/8/4-byte vectors distributed
//    round-robin over the block's threads (coalesced: consecutive threads take consecutive
//    vectors of a row); global -> shared copies inside a pipeline become cp.async with
//    zero-fill for out-of-bounds vectors (PTX ISA §9.7.9.25.3.1);
//  - a thread-private local buffer: every thread copies every element.
// Out-of-bounds source elements read 0; out-of-bounds destination elements are not written.
#include "compiler/analysis/UserLayouts.h"
#include "compiler/transforms/Hopper.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::xform::lower {
using namespace ts::ir;

namespace {

bool innerContiguous(const Region& r);

// mma and wgmma accumulators hold column pairs (j, j+1) in registers (r, r+1) for even r (PTX
// ISA §9.7.14.5.8, §9.7.15.5.1.1.1): write them to global memory with one paired store.
bool pairedEpilogue(const LayoutNode& L, const Region& dst) {
    if ((L.family != "mma_c" && L.family != "wgmma_c") || dst.buffer->scope != Scope::Global || !innerContiguous(dst)) return false;
    int bytes = dtypeBytes(dst.buffer->dtype);
    return (bytes == 2 || bytes == 4) && divisibleBy(dst.ranges.back().min, 2) && divisibleBy(dst.buffer->shape.back(), 2);
}

Stmt copyPerThread(Ctx& c, const TileOpNode& op, const Region& src, const Region& dst, const std::vector<int64_t>& ext) {
    std::vector<Var> vars;
    std::vector<Expr> sq;
    for (size_t d = 0; d < ext.size(); ++d) {
        vars.push_back(makeVar(c.fresh("e"), DType::Int32, op.span));
        sq.push_back(vars.back());
    }
    auto sIdx = regionIndex(src, sq), dIdx = regionIndex(dst, sq);
    Expr v = cast(dst.buffer->dtype, load(src.buffer, sIdx, op.span));
    if (Expr sIn = inBounds(src.buffer, sIdx)) v = select(sIn, v, cast(dst.buffer->dtype, intImm(0)));
    Stmt body = store(dst.buffer, dIdx, v, op.span);
    if (Expr dIn = inBounds(dst.buffer, dIdx)) body = ifThen(dIn, body, nullptr, op.span);
    for (size_t d = ext.size(); d-- > 0;) body = forLoop(vars[d], intImm(0), intImm(ext[d]), ForKind::Serial, body, {{"thread_loop", true}}, op.span);
    return body;
}

// Innermost region dim must be the buffer's last dim (not squeezed) for vector access.
bool innerContiguous(const Region& r) {
    if (r.ranges.empty()) return false;
    auto e = constInt(r.ranges.back().extent);
    return !(e && *e == 1) && r.buffer->strides.empty();
}

// Elements per vector of a copy: 16/8/4 bytes of equal dtypes. A converting copy (float32 ->
// float16) takes the same widths in elements of its wider side: each thread then converts v
// consecutive elements, which the code generator loads and stores as vectors (VectorAccess.h).
int64_t chooseVector(Ctx& c, const Region& src, const Region& dst, const std::vector<int64_t>& ext) {
    if (ext.empty() || !innerContiguous(src) || !innerContiguous(dst)) return 1;
    if (dtypeBits(dst.buffer->dtype) < 8 || dtypeBits(src.buffer->dtype) < 8) return 1;
    int elt = std::max(dtypeBytes(dst.buffer->dtype), dtypeBytes(src.buffer->dtype));
    for (int bytes : {16, 8, 4}) {
        int64_t v = bytes / elt;
        if (v < 1 || ext.back() % v != 0) continue;
        bool ok = true;
        for (const Region* r : {&src, &dst}) {
            ok &= divisibleBy(r->ranges.back().min, v) && divisibleBy(r->buffer->shape.back(), v);
            if (r->buffer->scope == Scope::Shared)
                if (auto l = c.layoutOf(r->buffer->name); l && (l->padElems % v != 0 || l->offset)) {
                    // The TMA/wgmma swizzle permutes whole 16-byte chunks (analysis::wgmmaSharedOffset:
                    // columns XOR a multiple of 16/e, panels of a multiple of 16/e columns), so a
                    // vector of at most 16 bytes starting at a multiple of its width stays in one
                    // chunk, contiguous and 16-byte aligned: cp.async into the sm_90a attention tiles.
                    ok &= l->family == "wgmma_smem" && l->padElems == 0;
                }
        }
        if (ok) return v;
    }
    return 1;
}

Stmt copyDistributed(Ctx& c, const TileOpNode& op, const Region& src, const Region& dst, const std::vector<int64_t>& ext,
                     const Target& target) {
    // inject-pipeline marks early-issued producers "async"; the target says whether that is cp.async.
    bool async = target.copyEngine(src.buffer->scope, dst.buffer->scope, attrBool(op.attrs, "async", false)) ==
                 CopyEngine::CpAsync;
    int64_t v = chooseVector(c, src, dst, ext);
    int bytes = static_cast<int>(v * dtypeBytes(dst.buffer->dtype));
    // A converting copy (bfloat16 global -> float32 shared) moves no bytes as they are: never a
    // cp.async or vector copy, even of one 4-byte element (it read two bfloat16 as one float:
    // wrong values, and a misaligned address on the GPU for deepseek_mhc's mhc_pre).
    bool vecOk = src.buffer->dtype == dst.buffer->dtype && (bytes == 4 || bytes == 8 || bytes == 16);
    // A converting copy keeps its v elements per thread as an unrolled loop of element copies.
    const int64_t convertEach = !vecOk && src.buffer->dtype != dst.buffer->dtype && !async ? v : 1;
    if (!vecOk) v = 1;
    std::vector<int64_t> chunkExt = ext.empty() ? std::vector<int64_t>{1} : ext;
    chunkExt.back() /= v * convertEach;
    int64_t total = 1;
    for (auto e : chunkExt) total *= e;
    int64_t iters = (total + c.threads - 1) / c.threads;
    Var it = makeVar(c.fresh("v"), DType::Int32, op.span);
    Expr lin = add(mul(it, intImm(c.threads)), c.tx);
    std::vector<Expr> sq = delinearize(lin, chunkExt);
    Var each = convertEach > 1 ? makeVar(c.fresh("e"), DType::Int32, op.span) : nullptr;
    if (!ext.empty()) sq.back() = each ? add(mul(sq.back(), intImm(convertEach)), each) : mul(sq.back(), intImm(v));
    if (ext.empty()) sq.clear();
    auto sIdx = regionIndex(src, sq), dIdx = regionIndex(dst, sq);
    Expr sIn = inBounds(src.buffer, sIdx), dIn = inBounds(dst.buffer, dIdx);
    Stmt body;
    if (async && vecOk) {
        Expr srcAddr = addressOf(src.buffer, sIdx);
        if (sIn) {
            std::vector<Expr> zero(sIdx.size(), intImm(0));
            srcAddr = select(sIn, srcAddr, addressOf(src.buffer, zero));
        }
        body = intrinsicStmt(intrin::kCpAsync, {addressOf(dst.buffer, dIdx), srcAddr, intImm(bytes), sIn ? sIn : boolImm(true)}, op.span);
    } else if (vecOk && v > 1) {
        Stmt cp = intrinsicStmt(intrin::kCopyVec, {addressOf(dst.buffer, dIdx), addressOf(src.buffer, sIdx), intImm(bytes)}, op.span);
        if (sIn) cp = ifThen(sIn, cp, intrinsicStmt(intrin::kZeroVec, {addressOf(dst.buffer, dIdx), intImm(bytes)}, op.span), op.span);
        body = cp;
    } else {
        Expr val = cast(dst.buffer->dtype, load(src.buffer, sIdx, op.span));
        if (sIn) val = select(sIn, val, cast(dst.buffer->dtype, intImm(0)));
        body = store(dst.buffer, dIdx, val, op.span);
    }
    if (dIn) body = ifThen(dIn, body, nullptr, op.span);
    if (each) body = forLoop(each, intImm(0), intImm(convertEach), ForKind::Unrolled, body, {{"thread_loop", true}}, op.span);
    if (total % c.threads != 0) body = ifThen(lt(lin, intImm(total)), body, nullptr, op.span);
    ForKind kind = iters <= 16 ? ForKind::Unrolled : ForKind::Serial;
    return forLoop(it, intImm(0), intImm(iters), kind, body, {{"thread_loop", true}}, op.span);
}

}  // namespace

Stmt copyFragment(Ctx& c, const TileOpNode& op, const Region& src, const Region& dst, bool fragIsDst) {
    const Region& fr = fragIsDst ? dst : src;
    const Region& other = fragIsDst ? src : dst;
    auto& lf = c.frags.at(fr.buffer.get());
    const LayoutNode& L = *lf.layout;
    auto shape = constShape(*fr.buffer);
    auto ext = constExtents(fr);
    if (!shape || !ext || ext->size() != shape->size()) {
        c.error(op.span, "T.copy: the fragment region of '" + fr.buffer->name + "' needs constant extents",
                "slice the fragment with compile-time sizes (acc[0:valid_rows, :])");
        return nullptr;
    }
    // A sub-region (acc[:valid, :]): every thread still walks all its registers and keeps those
    // whose element lies in the region, at the element's offset from the region's start.
    const bool whole = *shape == *ext;
    Var r = makeVar(c.fresh("r"), DType::Int32, op.span);
    bool paired = whole && !fragIsDst && pairedEpilogue(L, other);
    Var q = paired ? makeVar(c.fresh("q"), DType::Int32, op.span) : nullptr;
    Expr slot = paired ? mul(q, intImm(2)) : Expr(r);
    std::unordered_map<const VarNode*, Expr> inv{{L.invThread.get(), c.tx}, {L.invLocal.get(), slot}};
    std::vector<Expr> idx, sq;
    Expr guard;
    int64_t numel = 1;
    for (auto e : *shape) numel *= e;
    bool padded = L.localSize * L.threads != numel * L.replicate;
    for (size_t d = 0; d < L.inverse.size(); ++d) {
        Expr e = substitute(L.inverse[d], inv);
        idx.push_back(e);
        if (padded) guard = logicalAnd(guard, lt(e, intImm((*shape)[d])));
        if (!whole) {
            const Expr& lo = fr.ranges[d].min;
            if (constInt(lo) != 0) guard = logicalAnd(guard, binary(BinOp::Ge, e, lo)), e = sub(e, lo);
            if ((*ext)[d] != (*shape)[d]) guard = logicalAnd(guard, lt(e, intImm((*ext)[d])));
        }
        if ((*ext)[d] != 1) sq.push_back(e);
    }
    std::vector<Expr> oIdx = regionIndex(other, sq);
    Expr oIn = inBounds(other.buffer, oIdx);
    Stmt body;
    if (fragIsDst) {
        Expr v = cast(fr.buffer->dtype, load(other.buffer, oIdx, op.span));
        if (oIn) v = select(oIn, v, cast(fr.buffer->dtype, intImm(0)));
        body = store(lf.regs, {r}, v, op.span);
    } else if (paired) {
        DType t = other.buffer->dtype;
        body = intrinsicStmt(intrin::kStorePair,
                             {addressOf(other.buffer, oIdx), cast(t, load(lf.regs, {slot}, op.span)),
                              cast(t, load(lf.regs, {add(slot, intImm(1))}, op.span))},
                             op.span);
        guard = logicalAnd(guard, oIn);
    } else {
        Expr v = cast(other.buffer->dtype, load(lf.regs, {r}, op.span));
        body = store(other.buffer, oIdx, v, op.span);
        guard = logicalAnd(guard, oIn);
        // Row values held by several threads (row_reduced, mma_c_rows): one store per element,
        // not one per copy (same value, but redundant traffic and a write-write race on shared).
        if (L.replicate > 1) guard = logicalAnd(guard, isFirstHolder(c, L, r));
    }
    if (guard) body = ifThen(guard, body, nullptr, op.span);
    Stmt loop = paired ? forLoop(q, intImm(0), intImm(L.localSize / 2), ForKind::Unrolled, body, {{"thread_loop", true}}, op.span)
                       : forLoop(r, intImm(0), intImm(L.localSize), ForKind::Unrolled, body, {{"thread_loop", true}}, op.span);
    // sm_90a: a pipelined wgmma may still be writing the accumulator (Hopper.h).
    if (Stmt wait = lowerWgmmaWait(c, lf, op.span)) return seq({wait, loop}, op.span);
    return loop;
}

Stmt lowerCopy(Ctx& c, const TileOpNode& op, const Target& target) {
    const Region &src = op.region(0), &dst = op.region(1);
    auto se = squeezedExtents(src), de = squeezedExtents(dst);
    if (!se || !de) {
        c.error(op.span, "T.copy: region extents must be compile-time constants", "use meta parameters for tile sizes");
        return nullptr;
    }
    if (*se != *de) {
        c.error(op.span, "T.copy: source and destination shapes differ after dropping unit dimensions",
                "make both regions the same shape");
        return nullptr;
    }
    bool sf = c.frags.count(src.buffer.get()), df = c.frags.count(dst.buffer.get());
    if (sf && df) {
        // Fragment -> fragment: same layout copies register by register.
        auto& a = c.frags.at(src.buffer.get());
        auto& b = c.frags.at(dst.buffer.get());
        if (!analysis::sameMapping(*a.layout, *b.layout)) {
            // A layout conversion: every holder stores its registers into a shared tile of the
            // fragment's shape, then every thread loads the elements its new layout gives it
            // (insert-sync puts the barrier between, and before the next iteration's stores).
            auto shape = constShape(*src.buffer);
            if (!shape || shape != constShape(*dst.buffer)) {
                c.error(op.span, "T.copy between fragments '" + src.buffer->name + "' and '" + dst.buffer->name +
                                     "' with different layouts needs two whole fragments of one constant shape");
                return nullptr;
            }
            std::vector<Expr> ext;
            std::vector<Range> ranges;
            for (int64_t e : *shape) ext.push_back(intImm(e)), ranges.push_back({intImm(0), intImm(e)});
            Buffer tile = std::make_shared<BufferNode>(c.fresh(src.buffer->name + "_to_" + dst.buffer->name), dst.buffer->dtype,
                                                       ext, Scope::Shared, op.span);
            Region through{tile, ranges, op.span};
            Stmt put = copyFragment(c, op, src, through, false), get = copyFragment(c, op, through, dst, true);
            if (!put || !get) return nullptr;
            return seq({std::make_shared<AllocNode>(tile, nullptr, op.span), put, get}, op.span);
        }
        // Register by register copies whole fragments: a part would silently become the whole
        // (helper-128 #1: `T.copy(a[0:M, 1:N], h[0:M, 1:N])` overwrote h's column 0).
        if (!wholeBuffer(src) || !wholeBuffer(dst)) {
            const auto [loop, to] = parallelLoopText(*dst.buffer);
            const auto from = parallelLoopText(*src.buffer).second;
            c.error(op.span, "T.copy between parts of fragments '" + src.buffer->name + "' and '" + dst.buffer->name +
                                 "' is not supported: TileScope copies a fragment to a fragment whole",
                    "copy the part with a T.Parallel loop over its indices (`" + loop + " " + to + " = " + from +
                        "`), or copy the whole fragments");
            return nullptr;
        }
        Var r = makeVar(c.fresh("r"), DType::Int32, op.span);
        Stmt body = store(b.regs, {r}, cast(dst.buffer->dtype, load(a.regs, {r})), op.span);
        return forLoop(r, intImm(0), intImm(a.layout->localSize), ForKind::Unrolled, body, {{"thread_loop", true}}, op.span);
    }
    if (sf || df) return copyFragment(c, op, src, dst, df);
    if (src.buffer->scope == Scope::Local || dst.buffer->scope == Scope::Local) return copyPerThread(c, op, src, dst, *se);
    // sm_90a: a global -> shared copy TMA can do is one TMA load (CopyTma.cpp); else a note says why.
    if (src.buffer->scope == Scope::Global && dst.buffer->scope == Scope::Shared)
        if (Stmt tma = lowerCopyTma(c, op, target)) return tma;
    // sm_90a: a shared -> global copy TMA can do is one TMA store (CopyTma.cpp); else a note says why.
    if (src.buffer->scope == Scope::Shared && dst.buffer->scope == Scope::Global)
        if (Stmt tma = lowerCopyTmaStore(c, op, target)) return tma;
    return copyDistributed(c, op, src, dst, *se, target);
}

}  // namespace ts::xform::lower
