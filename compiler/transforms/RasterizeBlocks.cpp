// rasterize-blocks: the order in which a kernel's thread blocks take their output tiles.
// A kernel that says T.use_swizzle(panel, order) keeps its choice (elaboration emitted the
// marker). A kernel that says nothing and runs a T.gemm over a 2-D grid gets panels of block
// rows sized by the gemm's output tile (panelFor): consecutive blocks then share the A row panels and B column
// panels they read, so a wave of resident blocks rereads fewer tiles from DRAM (the reason is in
// resources/ts_device/raster.cuh, which codegen calls). Results are unchanged -- only which block
// computes which tile, a bijection -- so the interpreters ignore the marker.
// $TILESCOPE_RASTER_PANEL=N overrides the automatic panel (0: no automatic rasterization), for
// measuring the choice; explicit T.use_swizzle always wins.
// Requires: elaborated IR. Produces: a use_swizzle marker at the top of such kernels. Invalidates: nothing.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <utility>

#include "compiler/ir/IR.h"
#include "compiler/ir/Intrinsics.h"
#include "compiler/transforms/Passes.h"

namespace ts::xform {
using namespace ts::ir;

namespace {

/// Blocks resident at once in the wave the panel is sized for: about one per SM for the large
/// tiles of a tensor-core gemm (H100/H200 have 132 SMs, A100 108; an estimate, not a device fact).
constexpr double kWaveBlocks = 128;

/// $TILESCOPE_RASTER_PANEL as a number >= 0, or -1 when unset (or not a number).
int64_t panelFromEnvironment() {
    if (const char* e = std::getenv("TILESCOPE_RASTER_PANEL"); e && *e) {
        char* end = nullptr;
        long v = std::strtol(e, &end, 10);
        if (end && *end == '\0' && v >= 0 && v < (1 << 20)) return v;
    }
    return -1;
}

/// Rows of blocks per panel for blocks that each compute a tileM x tileN output tile. A wave of
/// W blocks in panels of p rows reads, per k step, p A tiles (p * tileM rows) and W / p B tiles
/// (W / p * tileN columns); their sum is least at p = sqrt(W * tileN / tileM): 16 for 128x256
/// tiles, 11 for 128x128. Measured on the H200 at 8192^3 with 128x256 tiles (fp16/bf16, two
/// stage counts; bench/results/raster-h200-2026-12-02/): launch order 1.59-1.82 ms, panels of 8
/// 1.50-1.69 ms, panels of 16 1.52-1.58 ms; at 4096^3 panels gain about 1%.
int64_t panelFor(int64_t tileM, int64_t tileN) {
    if (tileM <= 0 || tileN <= 0) return 8;
    const int64_t p = std::llround(std::sqrt(kWaveBlocks * double(tileN) / double(tileM)));
    return std::clamp<int64_t>(p, 1, 64);
}

bool hasUseSwizzle(const Stmt& body) {
    bool found = false;
    walk(body, [](const Stmt&) {}, [&](const Expr& e) {
        if (auto* c = as<CallNode>(e); c && c->op == intrin::kUseSwizzle) found = true;
    });
    return found;
}

/// The output tile (rows, columns) of the kernel's first T.gemm, or nullopt when it has none.
std::optional<std::pair<int64_t, int64_t>> gemmTile(const Stmt& body) {
    std::optional<std::pair<int64_t, int64_t>> tile;
    walk(body, [&](const Stmt& s) {
        auto* t = as<TileOpNode>(s);
        if (tile || !t || t->op != TileOpKind::Gemm || !t->isRegion(2)) return;
        const Region& c = t->region(2);
        const size_t n = c.ranges.size();
        auto rows = n >= 2 ? constInt(c.ranges[n - 2].extent) : std::nullopt;
        auto cols = n >= 1 ? constInt(c.ranges[n - 1].extent) : std::nullopt;
        tile = std::make_pair(rows.value_or(0), cols.value_or(0));
    }, [](const Expr&) {});
    return tile;
}

/// A grid dimension that is known to be one block wide leaves nothing to reorder.
bool wide(const Expr& extent) {
    auto c = constInt(extent);
    return !c || *c > 1;
}

class Rasterize : public Mutator {
public:
    explicit Rasterize(int64_t envPanel) : m_env(envPanel) {}
    Stmt visitKernel(const KernelNode* k, const Stmt& self) override {
        if (m_env == 0 || k->grid.size() < 2 || !wide(k->grid[0]) || !wide(k->grid[1]) || hasUseSwizzle(k->body))
            return self;
        auto tile = gemmTile(k->body);
        if (!tile) return self;
        const int64_t panel = m_env > 0 ? m_env : panelFor(tile->first, tile->second);
        Stmt marker = evaluate(call(intrin::kUseSwizzle,
                                    {intImm(panel), std::make_shared<StrImmNode>("row", k->span)},
                                    DType::Int32, k->span),
                               k->span);
        return std::make_shared<KernelNode>(k->grid, k->threads, k->blockVars, k->threadVars,
                                            seq({marker, k->body}, k->span), k->span);
    }

private:
    int64_t m_env;  ///< $TILESCOPE_RASTER_PANEL, -1 when unset
};

}  // namespace

ir::PrimFunc rasterizeBlocks(const ir::PrimFunc& f, PassContext&) {
    Rasterize r(panelFromEnvironment());
    Stmt body = r.mutate(f->body);
    return body == f->body ? f : withBody(f, body);
}

}  // namespace ts::xform
