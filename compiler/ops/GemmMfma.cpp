// T.gemm on the MFMA path (GemmEngine::Mfma: hip:gfx90a): resources/ts_hip.h's gemm_ss, where
// each 64-lane wavefront of a wm x wn grid issues v_mfma_f32_16x16x16f16 (bf16: _bf16_1k) on
// 16x16 atoms read from swizzled LDS tiles ("AMD Instinct MI200" ISA Reference Guide §7.1;
// operand/accumulator maps in analysis::makeMfma16Layout, the table the header is tested
// against). The lowering is the block gemm of GemmSm80.cpp with the target's MFMA atom
// (Target::mmaAtom -> analysis::selectMfmaAtom: f16/bf16 -> f32 only, a diagnostic otherwise)
// and without gemm_rs: a register A operand goes through a shared tile. k_pack (TileLang's
// MFMA operand packing) does not change this lowering: one 16x16x16 atom per k-step.
#include "compiler/analysis/HwLayouts.h"
#include "compiler/ops/GemmLowering.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::ops {

namespace {

ir::Layout mfmaAccumulator(int64_t M, int64_t N, analysis::WarpPartition wp) {
    return analysis::makeMfma16Layout('C', M, N, wp);
}

}  // namespace

ir::Stmt lowerGemmMfma(xform::lower::Ctx& c, const ir::TileOpNode& op, const Target& target) {
    return lowerBlockGemm(c, op, target, /*registerA=*/false);
}

void gemmLayoutsMfma(LayoutSolver& s, const ir::TileOpNode& t) {
    blockGemmLayouts(s, t,
                     {64, 16, "wavefront", "use threads=64, 128 or 256 (64-lane wavefronts on AMD CDNA)",
                      &mfmaAccumulator, false});
}

}  // namespace ts::ops
