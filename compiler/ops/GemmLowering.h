// The lowerings of T.gemm, one per gemm engine (Target::gemmEngine()); GemmOp.cpp picks one.
// A new engine (sm_90a wgmma, gfx90a MFMA) is one more function and file here, and one answer
// in compiler/target/Target.h.
#pragma once
#include "compiler/analysis/GemmPartition.h"
#include "compiler/ir/Stmt.h"
#include "compiler/ops/TileOp.h"
#include "compiler/target/Target.h"

namespace ts::xform::lower {
struct Ctx;
}

namespace ts::ops {

/// mma.sync path (GemmSm80.cpp): gemm_ss / gemm_rs of resources/ts_device.cuh with the atom of
/// Target::mmaAtom. Diagnoses unsupported operand scopes, shapes and dtype pairs.
ir::Stmt lowerGemmSm80(xform::lower::Ctx& c, const ir::TileOpNode& op, const Target& target);
/// MFMA path (GemmMfma.cpp, Target::gemmEngine() == Mfma: hip:gfx90a): gemm_ss of
/// resources/ts_hip.h (v_mfma_f32_16x16x16{f16,bf16_1k} per 64-lane wavefront); a register A
/// operand is staged through a shared tile (no gemm_rs on this path).
ir::Stmt lowerGemmMfma(xform::lower::Ctx& c, const ir::TileOpNode& op, const Target& target);
/// The block-gemm lowering shared by the mma.sync and MFMA engines (GemmSm80.cpp): operand
/// checks, the target's atom (Target::mmaAtom), the tl.gemm_ss call (tl.gemm_rs when
/// `registerA` and the register A operand is in the accumulator layout; else A is staged).
ir::Stmt lowerBlockGemm(xform::lower::Ctx& c, const ir::TileOpNode& op, const Target& target, bool registerA);
/// wgmma path (GemmSm90.cpp, Target::gemmEngine() == Wgmma: sm_90a): tl.wgmma_ss when
/// infer-layouts put the gemm on the Hopper path (accumulator layout family "wgmma_c"),
/// otherwise lowerGemmSm80.
ir::Stmt lowerGemmSm90(xform::lower::Ctx& c, const ir::TileOpNode& op, const Target& target);

/// Layout requirements of the mma.sync path (GemmSm80.cpp): the accumulator C as the
/// m16n8k16 accumulator fragment over the policy's warp grid (annotated as warp_m/warp_n), a
/// register A operand as the accumulator of its M x K tile, shared operands as row-major tiles
/// with a 128-byte-period XOR swizzle.
void gemmLayoutsSm80(LayoutSolver& s, const ir::TileOpNode& op);
/// Layout requirements of the MFMA path (GemmMfma.cpp): the accumulator as the
/// v_mfma_f32_16x16x16 C layout (analysis::makeMfma16Layout) over a grid of 64-lane wavefronts
/// whose tiles are whole 16x16 atoms, shared operands as gemmLayoutsSm80's.
void gemmLayoutsMfma(LayoutSolver& s, const ir::TileOpNode& op);

/// What the warp-level block gemms (mma.sync, MFMA) differ in for layout inference.
struct BlockGemmGrid {
    int lanes;                 ///< threads per warp (32) or wavefront (64)
    int64_t atomCols;          ///< accumulator columns of one atom: 8 (m16n8) or 16 (MFMA 16x16)
    const char* unit;          ///< "warp" or "wavefront", for diagnostics
    const char* threadsHint;   ///< hint when threads is not a multiple of `lanes`
    ir::Layout (*accumulator)(int64_t M, int64_t N, analysis::WarpPartition);  ///< C layout
    bool registerA;            ///< a register A operand may stay in registers (gemm_rs)
};
/// The layout requirements shared by the block gemms (GemmSm80.cpp): C over the policy's
/// warp/wavefront grid (annotated warp_m/warp_n), a register A operand (if `registerA`), shared
/// operands as row-major tiles with a 128-byte-period XOR swizzle.
void blockGemmLayouts(LayoutSolver& s, const ir::TileOpNode& op, const BlockGemmGrid& grid);

/// Layout requirements of the wgmma path (GemmSm90.cpp): when selectHopperGemm (Hopper.h)
/// accepts the gemm, the wgmma m64nNk16 accumulator over its warpgroups (annotated as
/// wgmma_warpgroups) and TMA/wgmma panel layouts for A and B; otherwise gemmLayoutsSm80's.
void gemmLayoutsSm90(LayoutSolver& s, const ir::TileOpNode& op);

}  // namespace ts::ops
