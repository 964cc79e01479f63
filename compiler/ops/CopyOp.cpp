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
    Stmt lower(xform::lower::Ctx& c, const TileOpNode& n, const Target& target) const override {
        return xform::lower::lowerCopy(c, n, target);
    }
    void interpret(interp::detail::Machine& m, const TileOpNode& n) const override { m.tileCopy(&n); }
};

}  // namespace

std::unique_ptr<TileOp> makeCopyOp() { return std::make_unique<CopyOp>(); }

}  // namespace ts::ops
