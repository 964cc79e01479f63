// T.copy(src, dst): a region copy between global, shared, fragment and local memory (LANGUAGE.md
// §3), with dtype conversion to dst's dtype. Reads src, writes dst; a global -> shared copy is
// the producer plan-pipelines may issue early (the Target picks cp.async or, later, TMA). The
// lowering is CopyLowering.cpp; the tile-level semantics Machine::tileCopy (interp/TileOps.cpp).
#include "compiler/interp/Machine.h"
#include "compiler/ops/Builtins.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::ops {
using namespace ts::ir;

namespace {

class CopyOp final : public TileOp {
public:
    std::string_view name() const override { return "copy"; }
    Signature signature() const override {
        return {{"copy"}, {}, "src Region, dst Region; attrs coalesced_width, disable_tma, async (inject-pipeline)"};
    }
    uint8_t access(const TileOpNode& n, size_t arg) const override {
        if (!n.isRegion(arg)) return kNoAccess;
        return arg == 0 ? kRead : arg == 1 ? kWrite : kNoAccess;
    }
    bool asyncProducer(const TileOpNode& n) const override {
        return n.isRegion(0) && n.isRegion(1) && n.region(0).buffer->scope == Scope::Global &&
               n.region(1).buffer->scope == Scope::Shared;
    }
    // A whole-fragment copy between two fragments of one shape is register to register when both
    // have the same layout: give the unplaced side the placed side's layout (infer-layouts asks
    // only when no T.Parallel nest decides it; differing layouts are converted by the lowering).
    bool propagateLayouts(LayoutSolver& s, const TileOpNode& t) const override {
        if (t.args.size() < 2 || !t.isRegion(0) || !t.isRegion(1)) return false;
        const Buffer &a = t.region(0).buffer, &b = t.region(1).buffer;
        if (a->scope != Scope::Fragment || b->scope != Scope::Fragment) return false;
        auto sa = constShape(*a), sb = constShape(*b);
        if (!sa || !sb || *sa != *sb) return false;
        Layout la = s.placed(a), lb = s.placed(b);
        std::string where = "T.copy at " + LayoutSolver::lineOf(t.span);
        if (la && !lb) return s.require(b, la, where, t.span), true;
        if (lb && !la) return s.require(a, lb, where, t.span), true;
        return false;
    }
    Stmt lower(xform::lower::Ctx& c, const TileOpNode& n, const Target& target) const override {
        return xform::lower::lowerCopy(c, n, target);
    }
    void interpret(interp::detail::Machine& m, const TileOpNode& n) const override { m.tileCopy(&n); }
};

}  // namespace

std::unique_ptr<TileOp> makeCopyOp() { return std::make_unique<CopyOp>(); }

}  // namespace ts::ops
