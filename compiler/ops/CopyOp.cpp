// T.copy(src, dst): a region copy between global, shared, fragment and local memory (LANGUAGE.md
// §3), with dtype conversion to dst's dtype. Reads src, writes dst; a global -> shared copy is
// the producer plan-pipelines may issue early (the Target picks cp.async or, later, TMA). The
// lowering is CopyLowering.cpp; the tile-level semantics Machine::tileCopy (interp/TileOps.cpp).
#include "compiler/interp/Machine.h"
#include "compiler/ops/Builtins.h"
#include "compiler/analysis/WgmmaLayouts.h"
#include "compiler/transforms/Hopper.h"
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
    // An epilogue staging tile on sm_90a (T.copy(C_local, C_shared) from a tensor-core accumulator; T.copy(C_shared, C[...])):
    // the default row-major layout puts the 8 rows a warp writes per accumulator instruction in
    // one bank group (rows of 128 bytes or a multiple: 8-way conflicts) and TMA would read it
    // without a swizzle. The wgmma operand layout (128-byte swizzled column panels,
    // analysis/WgmmaLayouts.h) spreads those rows over the 8 16-byte chunks of a 128-byte line
    // and is a layout TMA stores from (one box per panel, CopyTma.cpp). Chosen only where the
    // store to global takes TMA with it (tmaStoreWhyNot), so every other use keeps the default.
    void layoutConstraints(LayoutRound round, LayoutSolver& s, const TileOpNode& t) const override {
        if (round != LayoutRound::Derived || !s.target().hasWgmma()) return;
        if (t.args.size() < 2 || !t.isRegion(0) || !t.isRegion(1)) return;
        const Buffer &frag = t.region(0).buffer, &tile = t.region(1).buffer;
        if (frag->scope != Scope::Fragment || tile->scope != Scope::Shared || s.placed(tile)) return;
        if (Layout fl = s.placed(frag); !fl || !analysis::accumulatorStagesConflictFree(*fl, dtypeBytes(tile->dtype))) return;
        auto shape = constShape(*tile);
        if (!shape || shape->size() != 2) return;
        auto g = analysis::wgmmaTileGeometry((*shape)[0], (*shape)[1], dtypeBytes(tile->dtype));
        if (!g || g->panelBytes != 128) return;
        Layout staged = analysis::makeWgmmaSharedLayout(*g);
        bool stored = false, other = false;
        walk(s.func().body, [&](const Stmt& x) {
            auto* c = as<TileOpNode>(x);
            if (!c || c == &t) {
                return;
            }
            for (size_t a = 0; a < c->args.size(); ++a)
                if (c->isRegion(a) && c->region(a).buffer == tile) {
                    const bool store = c->op == TileOpKind::Copy && a == 0 && c->args.size() >= 2 && c->isRegion(1) &&
                                       c->region(1).buffer->scope == Scope::Global &&
                                       xform::tmaStoreWhyNot(s.func(), *c, staged, s.target(), nullptr).empty();
                    (store ? stored : other) = true;
                }
        });
        if (stored && !other) s.require(tile, staged, "T.copy at " + LayoutSolver::lineOf(t.span) + " (a TMA-stored epilogue tile)", t.span);
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
