// T.reduce_{sum,max,min,absmax,abssum}(src, dst, dim, clear): a fragment reduced along one axis
// into its row companion (attr "op", "dim", "clear"). Reads src, writes dst (and reads it when
// clear=False). Lowering of block fragments: per-thread partials, an xor-shuffle all-reduce over
// the lanes of a row group, then shared memory across warps when a row spans several; mma
// accumulators go to ReduceAccumulatorLowering.cpp (quad shuffles + exchange across warp columns).
#include "compiler/interp/Machine.h"
#include "compiler/ops/Builtins.h"
#include "compiler/analysis/Layouts.h"
#include "compiler/analysis/UserLayouts.h"
#include "compiler/ops/ReduceLowering.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::ops {
using namespace ts::ir;
using namespace ts::xform::lower;

namespace {

// The (1,) value of a 1-D block fragment reduced whole (row_reduced with one row).
Layout rowCompanion1D(const LayoutNode& l) {
    if (l.family != "block1d") return nullptr;
    auto p = analysis::blockParamsOf(l);
    return p ? analysis::makeRowReduced(*p) : nullptr;
}

Stmt lowerReduce(Ctx& c, const TileOpNode& op, const Target& target) {
    const Region &src = op.region(0), &dst = op.region(1);
    auto si = c.frags.find(src.buffer.get()), di = c.frags.find(dst.buffer.get());
    if (si == c.frags.end() || di == c.frags.end() || !wholeBuffer(src) || !wholeBuffer(dst))
        return lowerReduceThroughShared(c, op);
    // The shuffle lowerings: the last dim of a block fragment or an mma accumulator into its row
    // companion. Any other pair of layouts goes through shared memory.
    const LayoutNode &sl = *si->second.layout, &dl = *di->second.layout;
    auto shape = constShape(*src.buffer);
    int64_t dim = attrInt(op.attrs, "dim", -1);
    if (shape && dim < 0) dim += static_cast<int64_t>(shape->size());
    Layout companion = shape && shape->size() <= 2 && dim == static_cast<int64_t>(shape->size()) - 1
                           ? (shape->size() == 2 ? analysis::rowCompanion(sl) : rowCompanion1D(sl))
                           : nullptr;
    if (!companion || !analysis::sameMapping(dl, *companion)) return lowerReduceThroughShared(c, op);
    if (sl.family == "mma_c" || sl.family == "mfma_c") return lowerReduceAccumulator(c, op, si->second, di->second);
    auto p = analysis::blockParamsOf(sl);
    if (!p) return lowerReduceThroughShared(c, op);
    std::string rop = attrStr(op.attrs, "op", "sum");
    const bool nanProp = reduceNanPropagate(op.attrs);
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
    Stmt accum = store(acc, {intImm(0)}, reduceCombine(rop, load(acc, {intImm(0)}), x, nanProp), sp);
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
    std::string shfl = reduceShuffleOp(rop, nanProp);
    // Shuffles stay inside one warp (32 lanes) or AMD wavefront (64 lanes, hip:gfx90a).
    const int64_t warp = target.warpSize();
    int64_t lanes = std::min<int64_t>(p->gc, warp);
    if (lanes > 1)
        row.push_back(store(acc, {intImm(0)},
                            call(intrin::kWarpAllreduce, {std::make_shared<StrImmNode>(shfl, sp), load(acc, {intImm(0)}), intImm(lanes)}, acct, sp),
                            sp));
    std::vector<Stmt> pre;
    if (p->gc > warp) {
        // A row spans gc/warp warps: lane 0 of each warp publishes its partial, then every thread
        // of the row group combines them. Barriers are block-uniform (the rr loop is).
        int64_t wpr = p->gc / warp;
        Buffer scratch = std::make_shared<BufferNode>(c.fresh("red_smem"), acct, std::vector<Expr>{intImm(p->gr * wpr)}, Scope::Shared, sp);
        pre.push_back(std::make_shared<AllocNode>(scratch, nullptr, sp));
        Expr group = floordiv(c.tx, intImm(p->gc)), warpInRow = floordiv(floormod(c.tx, intImm(p->gc)), intImm(warp));
        row.push_back(ifThen(binary(BinOp::Eq, floormod(c.tx, intImm(warp)), intImm(0)),
                             store(scratch, {add(mul(group, intImm(wpr)), warpInRow)}, load(acc, {intImm(0)}), sp), nullptr, sp));
        row.push_back(intrinsicStmt(intrin::kSyncThreads, {}, sp));
        Var w = makeVar(c.fresh("w"), DType::Int32, sp);
        row.push_back(store(acc, {intImm(0)}, reduceIdentity(rop, acct), sp));
        row.push_back(forLoop(w, intImm(0), intImm(wpr), ForKind::Unrolled,
                              store(acc, {intImm(0)}, reduceCombine(rop, load(acc, {intImm(0)}), load(scratch, {add(mul(group, intImm(wpr)), w)}), nanProp), sp),
                              {{"thread_loop", true}}, sp));
        row.push_back(intrinsicStmt(intrin::kSyncThreads, {}, sp));
    }
    Expr result = load(acc, {intImm(0)});
    if (!clear) result = reduceCombine(rop, cast(acct, load(di->second.regs, {rr})), result, nanProp);
    Stmt out = store(di->second.regs, {rr}, result, sp);
    // clear=False reads the destination: a thread that owns no row (fewer rows than row groups)
    // would read a register nothing wrote (the lowered interpreter stopped there, helper-115).
    if (!clear && p->rows % p->gr != 0)
        out = ifThen(lt(add(mul(rr, intImm(p->gr)), floordiv(c.tx, intImm(p->gc))), intImm(p->rows)), out, nullptr, sp);
    row.push_back(out);
    pre.push_back(std::make_shared<AllocNode>(acc, nullptr, sp));
    pre.push_back(forLoop(rr, intImm(0), intImm(rpt), ForKind::Unrolled, seq(row, sp), {}, sp));
    return seq(pre, sp);
}

class ReduceOp final : public TileOp {
public:
    std::string_view name() const override { return "reduce"; }
    Signature signature() const override {
        return {{"reduce_sum", "reduce_max", "reduce_min", "reduce_absmax", "reduce_abssum"},
                {},
                "src Region, dst Region; attrs op (sum|max|min|absmax|abssum), dim, clear"};
    }
    std::string spelling(const TileOpNode& n) const override { return "reduce_" + attrStr(n.attrs, "op", "sum"); }
    uint8_t access(const TileOpNode& n, size_t arg) const override {
        if (!n.isRegion(arg)) return kNoAccess;
        if (arg == 0) return kRead;
        if (arg == 1) return attrBool(n.attrs, "clear", true) ? uint8_t(kWrite) : uint8_t(kRead | kWrite);
        return kNoAccess;
    }
    // Round Derived (after every gemm placed its accumulator, whatever the program order). The
    // last dim of a 1-D/2-D fragment: the source keeps the layout it has (block fragment or an
    // accumulator with a row companion) or gets the cheapest block fragment (or the 2-D layout
    // whose companion an already placed destination is); an unplaced destination becomes the
    // source's row companion, so the shuffle lowering applies. Everything else (other dims,
    // layouts without a companion, a destination placed otherwise, shared tiles) constrains
    // nothing here: nests and defaults place the fragments and the lowering goes through shared
    // memory (ReduceSharedLowering.cpp).
    void layoutConstraints(LayoutRound round, LayoutSolver& s, const TileOpNode& t) const override {
        if (round != LayoutRound::Derived || !t.isRegion(0) || !t.isRegion(1)) return;
        const Buffer &src = t.region(0).buffer, &dst = t.region(1).buffer;
        if (src->scope != Scope::Fragment) return;
        auto shape = constShape(*src);
        int64_t dim = attrInt(t.attrs, "dim", -1);
        if (!shape || shape->empty()) return;
        if (dim < 0) dim += static_cast<int64_t>(shape->size());
        if (shape->size() > 2 || dim != static_cast<int64_t>(shape->size()) - 1) return;
        std::string where = "T." + spelling(t) + " at " + LayoutSolver::lineOf(t.span);
        const bool dstFrag = dst->scope == Scope::Fragment;
        Layout dstHave = dstFrag ? s.placed(dst) : nullptr;
        if (Layout have = s.placed(src)) {
            Layout companion = shape->size() == 2 ? analysis::rowCompanion(*have) : rowCompanion1D(*have);
            if (companion && dstFrag && !dstHave) s.require(dst, companion, where, t.span);
            return;
        }
        int64_t rows = shape->size() == 2 ? (*shape)[0] : 1, cols = shape->back();
        if (dstHave && shape->size() == 2)
            if (Layout fitting = analysis::layoutWithRowCompanion(*dstHave, rows, cols)) {
                s.require(src, fitting, where, t.span);
                return;
            }
        auto p = analysis::chooseBlockFragment(rows, cols, s.threads(), s.vectorEltBytes(src));
        s.require(src, analysis::makeBlockFragment(p, shape->size() == 1), where, t.span);
        if (dstFrag && !dstHave) s.require(dst, analysis::makeRowReduced(p), where, t.span);
    }
    Stmt lower(Ctx& c, const TileOpNode& n, const Target& target) const override { return lowerReduce(c, n, target); }
    void interpret(interp::detail::Machine& m, const TileOpNode& n) const override { m.tileReduce(&n); }
};

}  // namespace

std::unique_ptr<TileOp> makeReduceOp() { return std::make_unique<ReduceOp>(); }

}  // namespace ts::ops
