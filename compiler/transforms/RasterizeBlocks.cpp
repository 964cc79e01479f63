// rasterize-blocks: the order in which a kernel's thread blocks take their output tiles.
// A kernel that says T.use_swizzle(panel, order) keeps its choice (elaboration emitted the
// marker). A kernel that says nothing and runs a T.gemm over a 2-D grid gets panels of
// kDefaultGemmPanel block rows: consecutive blocks then share the A row panels and B column
// panels they read, so a wave of resident blocks rereads fewer tiles from DRAM (the reason is in
// resources/ts_device/raster.cuh, which codegen calls). Results are unchanged -- only which block
// computes which tile, a bijection -- so the interpreters ignore the marker.
// $TILESCOPE_RASTER_PANEL=N overrides the automatic panel (0: no automatic rasterization), for
// measuring the choice; explicit T.use_swizzle always wins.
// Requires: elaborated IR. Produces: a use_swizzle marker at the top of such kernels. Invalidates: nothing.
#include <cstdlib>

#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/transforms/Passes.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

/// Rows of blocks per panel when the kernel does not choose: measured on the H200 at 4096^3 and
/// 8192^3 fp16/bf16 (bench/results/raster-h200-2026-12-02.json).
constexpr int64_t kDefaultGemmPanel = 8;

int64_t automaticPanel() {
    if (const char* e = std::getenv("TILESCOPE_RASTER_PANEL"); e && *e) {
        char* end = nullptr;
        long v = std::strtol(e, &end, 10);
        if (end && *end == '\0' && v >= 0 && v < (1 << 20)) return v;
    }
    return kDefaultGemmPanel;
}

bool hasUseSwizzle(const Stmt& body) {
    bool found = false;
    walk(body, [](const Stmt&) {}, [&](const Expr& e) {
        if (auto* c = as<CallNode>(e); c && c->op == intrin::kUseSwizzle) found = true;
    });
    return found;
}

bool hasGemm(const Stmt& body) {
    bool found = false;
    walk(body, [&](const Stmt& s) {
        if (auto* t = as<TileOpNode>(s); t && t->op == TileOpKind::Gemm) found = true;
    }, [](const Expr&) {});
    return found;
}

/// A grid dimension that is known to be one block wide leaves nothing to reorder.
bool wide(const Expr& extent) {
    auto c = constInt(extent);
    return !c || *c > 1;
}

class Rasterize : public Mutator {
public:
    explicit Rasterize(int64_t panel) : m_panel(panel) {}
    Stmt visitKernel(const KernelNode* k, const Stmt& self) override {
        if (m_panel <= 0 || k->grid.size() < 2 || !wide(k->grid[0]) || !wide(k->grid[1]) ||
            hasUseSwizzle(k->body) || !hasGemm(k->body))
            return self;
        Stmt marker = evaluate(call(intrin::kUseSwizzle,
                                    {intImm(m_panel), std::make_shared<StrImmNode>("row", k->span)},
                                    DType::Int32, k->span),
                               k->span);
        return std::make_shared<KernelNode>(k->grid, k->threads, k->blockVars, k->threadVars,
                                            seq({marker, k->body}, k->span), k->span);
    }

private:
    int64_t m_panel;
};

}  // namespace

ir::PrimFunc rasterizeBlocks(const ir::PrimFunc& f, PassContext&) {
    Rasterize r(automaticPanel());
    Stmt body = r.mutate(f->body);
    return body == f->body ? f : withBody(f, body);
}

}  // namespace ts::xform
