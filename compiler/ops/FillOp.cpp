// T.fill(buf, value) / T.clear(buf) (= fill with 0, attr "clear"): every element of a region
// gets one value, converted to the buffer's dtype. Writes its region. Lowering: fragments write
// each register (of a part: those whose element lies in the region); shared/global regions are spread over the block's threads (global elements
// outside the tensor are skipped); local buffers are filled by every thread.
#include "compiler/interp/Machine.h"
#include "compiler/ir/Functor.h"
#include "compiler/ops/Builtins.h"
#include "compiler/transforms/Hopper.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::ops {
using namespace ts::ir;
using namespace ts::xform::lower;

namespace {

Stmt lowerFill(Ctx& c, const TileOpNode& op) {
    const Region& dst = op.region(0);
    Expr value = cast(dst.buffer->dtype, std::get<Expr>(op.args.at(1)));
    if (auto it = c.frags.find(dst.buffer.get()); it != c.frags.end()) {
        // A fragment is filled register by register. A part of it (`T.clear(C[0:32, :])`): each
        // register whose element (the layout's inverse at this thread and register) lies in the
        // region; before, a part silently became the whole (helper-128 #1), then an error.
        const LayoutNode& l = *it->second.layout;
        Expr inRegion;
        Var r = makeVar(c.fresh("r"), DType::Int32, op.span);
        if (!wholeBuffer(dst)) {
            if (l.inverse.size() != dst.ranges.size() || !l.invThread || !l.invLocal) {
                const char* what = attrBool(op.attrs, "clear", false) ? "T.clear" : "T.fill";
                const auto [loop, at] = parallelLoopText(*dst.buffer);
                c.error(op.span, std::string(what) + " of part of fragment '" + dst.buffer->name + "': its layout (" + l.description +
                                     ") gives no element index per register",
                        "write the part with a T.Parallel loop over its indices (`" + loop + " " + at + " = value`), or fill all of '" +
                            dst.buffer->name + "'");
                return nullptr;
            }
            const std::unordered_map<const VarNode*, Expr> at{{l.invThread.get(), c.tx}, {l.invLocal.get(), r}};
            for (size_t d = 0; d < dst.ranges.size(); ++d) {
                Expr i = substitute(l.inverse[d], at);
                const Range& rg = dst.ranges[d];
                inRegion = logicalAnd(inRegion, logicalAnd(binary(BinOp::Ge, i, rg.min), lt(i, add(rg.min, rg.extent))));
            }
        }
        Stmt one = store(it->second.regs, {r}, value, op.span);
        if (inRegion) one = ifThen(inRegion, one, nullptr, op.span);
        Stmt fill = forLoop(r, intImm(0), intImm(l.localSize), ForKind::Unrolled, one, {{"thread_loop", true}}, op.span);
        if (Stmt wait = xform::lowerWgmmaWait(c, it->second, op.span)) return seq({wait, fill}, op.span);  // sm_90a
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

class FillOp final : public TileOp {
public:
    std::string_view name() const override { return "fill"; }
    Signature signature() const override { return {{"fill", "clear"}, {}, "dst Region, value Expr; attr clear"}; }
    std::string spelling(const TileOpNode& n) const override {
        return attrBool(n.attrs, "clear", false) ? "clear" : "fill";
    }
    uint8_t access(const TileOpNode& n, size_t arg) const override {
        return arg == 0 && n.isRegion(0) ? kWrite : kNoAccess;
    }
    Stmt lower(Ctx& c, const TileOpNode& n, const Target&) const override { return lowerFill(c, n); }
    void interpret(interp::detail::Machine& m, const TileOpNode& n) const override { m.tileFill(&n); }
};

}  // namespace

std::unique_ptr<TileOp> makeFillOp() { return std::make_unique<FillOp>(); }

}  // namespace ts::ops
