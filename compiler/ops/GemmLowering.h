// The lowerings of T.gemm, one per gemm engine (Target::gemmEngine()); GemmOp.cpp picks one.
// A new engine (sm_90a wgmma, gfx90a MFMA) is one more function and file here, and one answer
// in compiler/target/Target.h.
#pragma once
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
/// wgmma path (GemmSm90.cpp, Target::gemmEngine() == Wgmma: sm_90a): tl.wgmma_ss when
/// infer-layouts put the gemm on the Hopper path (accumulator layout family "wgmma_c"),
/// otherwise lowerGemmSm80.
ir::Stmt lowerGemmSm90(xform::lower::Ctx& c, const ir::TileOpNode& op, const Target& target);

/// Layout requirements of the mma.sync path (GemmSm80.cpp): the accumulator C as the
/// m16n8k16 accumulator fragment over the policy's warp grid (annotated as warp_m/warp_n), a
/// register A operand as the accumulator of its M x K tile, shared operands as row-major tiles
/// with a 128-byte-period XOR swizzle.
void gemmLayoutsSm80(LayoutSolver& s, const ir::TileOpNode& op);
/// Layout requirements of the wgmma path (GemmSm90.cpp): when selectHopperGemm (Hopper.h)
/// accepts the gemm, the wgmma m64nNk16 accumulator over its warpgroups (annotated as
/// wgmma_warpgroups) and TMA/wgmma panel layouts for A and B; otherwise gemmLayoutsSm80's.
void gemmLayoutsSm90(LayoutSolver& s, const ir::TileOpNode& op);

}  // namespace ts::ops
