// General lowering of T.reduce_*(src, dst, dim, clear): any rank, any reduced dimension, any
// fragment layout (block fragments, mma accumulators, user T.Fragment layouts, replicated
// tables) and shared sources or destinations. The shuffle lowerings in ReduceOp.cpp and
// ReduceAccumulatorLowering.cpp only cover the last dimension of a block fragment or an mma
// accumulator into its row companion; everything else (column sums `T.reduce_sum(x, col,
// dim=0)`, reductions of a shared tile, a destination whose layout another op fixed) comes here.
//
// Shape: src extents (s0, .., s_{n-1}), reduced dim d; dst holds the n-1 other extents (unit
// dims squeezed on both sides, as TileLang and the tile interpreter compare them).
// Code:
//   1. a fragment source is staged whole into a shared tile of its shape (copyFragment: every
//      thread stores its registers through the layout's inverse; replicated values once);
//      a shared source is read where it is;
//   2. each output element is reduced over s_d by the threads that hold it: a fragment
//      destination by every holder of each of its registers (inverse of its layout, so any
//      layout works and replicated holders agree), a shared/global destination by element
//      k*threads + tx (coalesced);
// insert-sync places the barrier between the staging stores and the reads, and before the next
// iteration's stores into the scratch tile (write-after-read).
#include "compiler/ops/ReduceLowering.h"

namespace ts::xform::lower {
using namespace ts::ir;

namespace {

// Largest fragment source staged in one piece (bytes of shared memory).
constexpr int64_t kStageBytes = 32 * 1024;

std::vector<int64_t> squeezeExtents(const std::vector<int64_t>& e) {
    std::vector<int64_t> out;
    for (int64_t x : e)
        if (x != 1) out.push_back(x);
    return out;
}

}  // namespace

Stmt lowerReduceThroughShared(Ctx& c, const TileOpNode& op) {
    const Region &src = op.region(0), &dst = op.region(1);
    const Span sp = op.span;
    const std::string rop = attrStr(op.attrs, "op", "sum");
    const bool nanProp = reduceNanPropagate(op.attrs);
    const std::string what = "T.reduce_" + rop;
    auto sExt = constExtents(src), dExt = constExtents(dst);
    if (!sExt || !dExt) {
        c.error(sp, what + ": the source and destination regions need constant extents",
                "slice the tiles with compile-time sizes");
        return nullptr;
    }
    const int64_t rank = static_cast<int64_t>(sExt->size());
    int64_t dim = attrInt(op.attrs, "dim", -1);
    if (dim < 0) dim += rank;
    if (dim < 0 || dim >= rank) {
        c.error(sp, what + ": dim " + std::to_string(attrInt(op.attrs, "dim", -1)) + " is out of range for a " +
                        std::to_string(rank) + "-D source",
                "pass a dim between 0 and " + std::to_string(rank - 1));
        return nullptr;
    }
    std::vector<int64_t> outExt = *sExt;
    outExt.erase(outExt.begin() + dim);
    if (squeezeExtents(outExt) != squeezeExtents(*dExt)) {
        c.error(sp, what + ": the destination '" + dst.buffer->name + "' must have the source's shape without dim " +
                        std::to_string(dim),
                "allocate the destination with the other dimensions of the source");
        return nullptr;
    }
    for (const Region* r : {&src, &dst})
        if (r->buffer->scope == Scope::Local) {
            c.error(sp, what + ": '" + r->buffer->name + "' is a per-thread local buffer; reductions read and write fragments or shared tiles",
                    "use T.alloc_fragment or T.alloc_shared");
            return nullptr;
        }

    std::vector<Stmt> out;
    // 1. The tile the reduction reads. A fragment source larger than kStageBytes (the (256, 2, 64)
    // float32 view of the lightning indexer's accumulator: 128 KB) is staged in chunks of rows
    // of its dim 0 (when that dim is not the reduced one): each chunk is stored, reduced into
    // the outputs of its rows, and the next chunk reuses the tile (insert-sync orders them).
    Region tile = src;
    Var chunk;
    int64_t chunkRows = 0;
    const bool fragSrc = c.frags.count(src.buffer.get()) != 0;
    if (fragSrc) {
        int64_t bytes = dtypeBytes(src.buffer->dtype);
        for (int64_t e : *sExt) bytes *= e;
        int64_t chunks = 1;
        if (dim != 0 && rank > 1 && bytes > kStageBytes)
            while (chunks < (*sExt)[0] && ((*sExt)[0] % (chunks * 2) == 0) && bytes / chunks > kStageBytes) chunks *= 2;
        chunkRows = (*sExt)[0] / chunks;
        std::vector<Expr> shape;
        std::vector<Range> ranges;
        for (size_t d = 0; d < sExt->size(); ++d) {
            int64_t e = d == 0 ? chunkRows : (*sExt)[d];
            shape.push_back(intImm(e)), ranges.push_back({intImm(0), intImm(e)});
        }
        Buffer scratch = std::make_shared<BufferNode>(c.fresh(src.buffer->name + "_red"), src.buffer->dtype, shape, Scope::Shared, sp);
        tile = Region{scratch, ranges, sp};
        Region part = src;
        if (chunks > 1) {
            chunk = makeVar(c.fresh("rchunk"), DType::Int32, sp);
            part.ranges[0] = {add(src.ranges[0].min, mul(chunk, intImm(chunkRows))), intImm(chunkRows)};
        }
        Stmt put = copyFragment(c, op, part, tile, false);
        if (!put) return nullptr;
        out.push_back(std::make_shared<AllocNode>(scratch, nullptr, sp));
        out.push_back(put);
    }

    // 2. The value of one output element: `rel` are its indices relative to dst's region (all of
    // dst's dims); they give the source indices of the dims that are not reduced.
    const DType acct = dst.buffer->dtype;
    Buffer acc = std::make_shared<BufferNode>(c.fresh("red"), acct, std::vector<Expr>{intImm(1)}, Scope::Local, sp);
    out.push_back(std::make_shared<AllocNode>(acc, nullptr, sp));
    auto reduceInto = [&](const std::vector<Expr>& rel) {
        std::vector<Expr> dsq;
        for (size_t d = 0; d < rel.size(); ++d)
            if ((*dExt)[d] != 1) dsq.push_back(rel[d]);
        Var k = makeVar(c.fresh("rk"), DType::Int32, sp);
        std::vector<Expr> at;
        size_t next = 0;
        for (int64_t d = 0; d < rank; ++d) {
            Expr i = d == dim ? Expr(k) : (*sExt)[d] == 1 ? intImm(0) : dsq.at(next++);
            if (d == 0 && chunk) i = sub(i, mul(chunk, intImm(chunkRows)));
            at.push_back(add(tile.ranges[d].min, i));
        }
        Expr x = cast(acct, load(tile.buffer, at, sp));
        if (rop == "absmax" || rop == "abssum") x = call("abs", {x}, acct, sp);
        return seq({store(acc, {intImm(0)}, reduceIdentity(rop, acct), sp),
                    forLoop(k, intImm(0), intImm((*sExt)[dim]), ForKind::Serial,
                            store(acc, {intImm(0)}, reduceCombine(rop, load(acc, {intImm(0)}), x, nanProp), sp), {{"thread_loop", true}}, sp)},
                   sp);
    };
    // Outputs whose source rows lie in the current chunk (dim 0 of the source is the first
    // non-unit dim of dst's relative indices).
    auto inChunk = [&](const std::vector<Expr>& rel) -> Expr {
        if (!chunk) return nullptr;
        for (size_t d = 0; d < rel.size(); ++d)
            if ((*dExt)[d] != 1) {
                Expr lo = mul(chunk, intImm(chunkRows));
                return logicalAnd(binary(BinOp::Ge, rel[d], lo), lt(rel[d], add(lo, intImm(chunkRows))));
            }
        return nullptr;
    };
    // The statements after the staging: inside the chunk loop with it when chunked.
    auto finish = [&](Stmt reduceAll) {
        if (!chunk) return out.push_back(reduceAll), seq(out, sp);
        Stmt put = out[1];
        std::vector<Stmt> all{out[0]};
        all.insert(all.end(), out.begin() + 2, out.end());
        all.push_back(forLoop(chunk, intImm(0), intImm((*sExt)[0] / chunkRows), ForKind::Serial, seq({put, reduceAll}, sp), {}, sp));
        return seq(all, sp);
    };
    auto result = [&](Expr old) {
        Expr r = load(acc, {intImm(0)});
        return attrBool(op.attrs, "clear", true) ? r : reduceCombine(rop, cast(acct, std::move(old)), r, nanProp);
    };

    if (auto di = c.frags.find(dst.buffer.get()); di != c.frags.end()) {
        // Every holder of each register computes it (replicated holders get the same value).
        const LayoutNode& L = *di->second.layout;
        auto shape = constShape(*dst.buffer);
        if (!shape) {
            c.error(sp, what + ": the destination fragment '" + dst.buffer->name + "' needs a constant shape");
            return nullptr;
        }
        int64_t numel = 1;
        for (int64_t e : *shape) numel *= e;
        const bool padded = L.localSize * L.threads != numel * L.replicate;
        Var r = makeVar(c.fresh("r"), DType::Int32, sp);
        std::unordered_map<const VarNode*, Expr> inv{{L.invThread.get(), c.tx}, {L.invLocal.get(), r}};
        std::vector<Expr> rel;
        Expr guard;
        for (size_t d = 0; d < L.inverse.size(); ++d) {
            Expr e = substitute(L.inverse[d], inv);
            if (padded) guard = logicalAnd(guard, lt(e, intImm((*shape)[d])));
            const Expr& lo = dst.ranges[d].min;
            if (constInt(lo) != 0) guard = logicalAnd(guard, binary(BinOp::Ge, e, lo)), e = sub(e, lo);
            if ((*dExt)[d] != (*shape)[d]) guard = logicalAnd(guard, lt(e, intImm((*dExt)[d])));
            rel.push_back(e);
        }
        guard = logicalAnd(guard, inChunk(rel));
        Stmt body = seq({reduceInto(rel), store(di->second.regs, {r}, result(load(di->second.regs, {r})), sp)}, sp);
        if (guard) body = ifThen(guard, body, nullptr, sp);
        return finish(forLoop(r, intImm(0), intImm(L.localSize), ForKind::Unrolled, body, {{"thread_loop", true}}, sp));
    }

    // Shared or global destination: element k*threads + tx, row-major over dst's region.
    int64_t numel = 1;
    for (int64_t e : *dExt) numel *= e;
    Var it = makeVar(c.fresh("ri"), DType::Int32, sp);
    Expr lin = add(mul(it, intImm(c.threads)), c.tx);
    std::vector<Expr> rel = delinearize(lin, *dExt), at;
    for (size_t d = 0; d < rel.size(); ++d) at.push_back(add(dst.ranges[d].min, rel[d]));
    Stmt body = seq({reduceInto(rel), store(dst.buffer, at, cast(dst.buffer->dtype, result(load(dst.buffer, at, sp))), sp)}, sp);
    Expr guard = numel % c.threads != 0 ? lt(lin, intImm(numel)) : Expr();
    guard = logicalAnd(guard, inBounds(dst.buffer, at));
    guard = logicalAnd(guard, inChunk(rel));
    if (guard) body = ifThen(guard, body, nullptr, sp);
    return finish(forLoop(it, intImm(0), intImm((numel + c.threads - 1) / c.threads), ForKind::Serial, body, {{"thread_loop", true}}, sp));
}

}  // namespace ts::xform::lower
