// ldmatrix layouts and the shared-memory addresses of the block GEMM's operand loads. This is
// the compiler-side copy of resources/ts_device.cuh's GemmSS::load (which lane addresses which
// stored row), kept here so that the bank-conflict analysis (analysis/Banks.h) and the layout
// views see exactly the addresses the generated code issues. Any change to GemmSS::load must be
// mirrored in gemmOperandLoads() below; tests/unit/LayoutTest.cpp pins both by hand-derived maps.
//
// Hardware facts (PTX ISA 8.x, §9.7.14.5.15 "ldmatrix"): ldmatrix.sync.aligned.m8n8.{x1,x2,x4}
// loads 1, 2 or 4 matrices of 8 rows x 8 b16 elements (16 bytes per row). Lane t supplies the
// shared address of row t%8 of matrix t/8 (lanes 0-7 for x1, 0-15 for x2, all 32 for x4; other
// lanes' addresses are ignored). Matrix i arrives in destination register i, distributed like
// the mma.sync fragments: lane l holds row l/4, columns 2*(l%4) and 2*(l%4)+1 (.trans: column
// l/4, rows 2*(l%4) and 2*(l%4)+1).
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/ir/Layout.h"

namespace ts::analysis {

/// Row address supplier of ldmatrix: lane t gives the address of row t%8 of matrix t/8
/// (PTX ISA §9.7.14.5.15). Returns {matrix, row}, or {-1, -1} for a lane whose address is ignored
/// (t >= 8*matrices). matrices in {1, 2, 4}.
struct LdmatrixRow {
    int matrix = -1, row = -1;
};
LdmatrixRow ldmatrixSourceRow(int lane, int matrices);

/// Destination fragment of ldmatrix .x{matrices} as a layout over the stacked matrices, shape
/// (8*matrices, 8) b16 elements (matrix q = rows 8q..8q+7): thread = 4*(i%8) + j/2,
/// local = 2*(i/8) + j%2 (register i/8, half j%2). With `trans` the matrix is transposed on the
/// way: thread = 4*j + (i%8)/2, local = 2*(i/8) + (i%8)%2. threads = 32, localSize = 2*matrices.
ir::Layout makeLdmatrixFragment(int matrices, bool trans);

/// Source rows of ldmatrix .x{matrices} as a fragment over the 8*matrices row addresses
/// (shape (8*matrices,)): row i is supplied by thread i, local 0 (so x4 covers all 32 lanes).
ir::Layout makeLdmatrixSource(int matrices);

/// Static parameters of one tl.gemm_ss call (compiler/ir/Intrinsics.h, ts_device.cuh GemmSS).
struct GemmSSShape {
    int64_t M = 0, N = 0, K = 0;
    int wm = 1, wn = 1;
    bool transA = false, transB = false;
    int swizzleA = 0, swizzleB = 0;  ///< bytes: 0, 32, 64, 128
    int eltBytes = 2;                ///< fp16 / bf16
    /// Sub-tile operands read in place (ts::GemmTiling LDA/OFFA/LDB/OFFB): elements per stored
    /// row of the parent tile (0: the operand's own row) and the origin's element offset.
    int64_t ldA = 0, offA = 0, ldB = 0, offB = 0;
};

/// One warp-wide ldmatrix of GemmSS::load: which operand, x2 or x4, and per lane the byte
/// offset (relative to the operand tile's base, swizzle applied) of the row it addresses; -1 for
/// lanes whose address the instruction ignores.
struct LdmatrixIssue {
    char operand = 'A';  ///< 'A' or 'B'
    int matrices = 4;    ///< 2 or 4
    bool trans = false;
    int kk = 0;          ///< k16 step
    int index = 0;       ///< mi for A, ni (first of the pair) for B
    int64_t laneOffset[32];
};

/// Every ldmatrix that warp `warp` issues for all K/16 k-steps of one gemm_ss call, in issue
/// order (per k-step: kMI for A, then ceil(kNI/2) for B), exactly as GemmSS::load computes them.
std::vector<LdmatrixIssue> gemmOperandLoads(const GemmSSShape& g, int warp);

}  // namespace ts::analysis
