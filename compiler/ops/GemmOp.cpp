// T.gemm(A, B, C, transpose_A, transpose_B, policy, clear_accum, k_pack): C += op(A) op(B) on
// tiles (LANGUAGE.md §3). Reads A and B, writes C (and reads it unless clear_accum). Lowering is
// one function per gemm engine (GemmLowering.h), chosen by the Target; the tile-level semantics
// (mma atom rounding of analysis/MmaModel) is Machine::tileGemm (interp/TileOps.cpp).
#include "compiler/interp/Machine.h"
#include "compiler/ops/Builtins.h"
#include "compiler/ops/GemmLowering.h"

namespace ts::ops {
using namespace ts::ir;

namespace {

class GemmOp final : public TileOp {
public:
    std::string_view name() const override { return "gemm"; }
    Signature signature() const override {
        return {{"gemm", "wgmma_gemm"},
                {"GemmWarpPolicy"},
                "A Region, B Region, C Region; attrs transpose_A, transpose_B, policy, clear_accum, k_pack "
                "(+ warp_m, warp_n from infer-layouts)"};
    }
    uint8_t access(const TileOpNode& n, size_t arg) const override {
        if (!n.isRegion(arg) || arg > 2) return kNoAccess;
        if (arg < 2) return kRead;
        return attrBool(n.attrs, "clear_accum", false) ? uint8_t(kWrite) : uint8_t(kRead | kWrite);
    }
    void layoutConstraints(LayoutRound round, LayoutSolver& s, const TileOpNode& n) const override {
        if (round != LayoutRound::Hardware) return;
        switch (s.target().gemmEngine()) {
            case GemmEngine::MmaSync: return gemmLayoutsSm80(s, n);
            case GemmEngine::Wgmma: return gemmLayoutsSm90(s, n);
            case GemmEngine::Mfma: return gemmLayoutsMfma(s, n);
        }
    }
    Stmt lower(xform::lower::Ctx& c, const TileOpNode& n, const Target& target) const override {
        switch (target.gemmEngine()) {
            case GemmEngine::MmaSync: return lowerGemmSm80(c, n, target);
            case GemmEngine::Wgmma: return lowerGemmSm90(c, n, target);
            case GemmEngine::Mfma: return lowerGemmMfma(c, n, target);
        }
        return nullptr;
    }
    void interpret(interp::detail::Machine& m, const TileOpNode& n) const override { m.tileGemm(&n); }
};

}  // namespace

std::unique_ptr<TileOp> makeGemmOp() { return std::make_unique<GemmOp>(); }

}  // namespace ts::ops
