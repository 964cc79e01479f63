// The lowerings of T.gemm, one per gemm engine (Target::gemmEngine()); GemmOp.cpp picks one.
// A new engine (sm_90a wgmma, gfx90a MFMA) is one more function and file here, and one answer
// in compiler/target/Target.h.
#pragma once
#include "compiler/ir/Stmt.h"
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

}  // namespace ts::ops
