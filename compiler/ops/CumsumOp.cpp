// T.cumsum(src, dst, dim, reverse): inclusive scan along one axis (attr "dim" counts the axes as
// written, "reverse"). Reads src, writes dst. Lowering: shared-memory tiles only, one thread per
// line scanning sequentially (exact; lines spread over the threads).
#include "compiler/interp/Machine.h"
#include "compiler/ops/Builtins.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::ops {
using namespace ts::ir;
using namespace ts::xform::lower;

namespace {

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

class CumsumOp final : public TileOp {
public:
    std::string_view name() const override { return "cumsum"; }
    Signature signature() const override { return {{"cumsum"}, {}, "src Region, dst Region; attrs dim, reverse"}; }
    uint8_t access(const TileOpNode& n, size_t arg) const override {
        if (!n.isRegion(arg)) return kNoAccess;
        return arg == 0 ? kRead : arg == 1 ? kWrite : kNoAccess;
    }
    Stmt lower(Ctx& c, const TileOpNode& n, const Target&) const override { return lowerCumsum(c, n); }
    void interpret(interp::detail::Machine& m, const TileOpNode& n) const override { m.tileCumsum(&n); }
};

}  // namespace

std::unique_ptr<TileOp> makeCumsumOp() { return std::make_unique<CumsumOp>(); }

}  // namespace ts::ops
