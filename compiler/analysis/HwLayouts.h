// Register-fragment layouts of the tensor-core instructions that Layouts.h does not cover: the
// mma.sync m16n8k16 operands A and B, the wgmma m64nNk16 accumulator, and AMD's MFMA
// 16x16x16 f16 operands and accumulator. Like Layouts.h these are ir::LayoutNode fragments
// (forward thread/local over the logical indices, inverse over (thread, local)), so the views,
// the interpreter and any future lowering read the same tables. Each has a warp-level atom and
// a block-level tiling over a grid of warps (warpgroups, wavefronts).
//
// Hardware facts and their sources (checked against the documents, not recalled):
//  - mma.sync.m16n8k16 .f16/.bf16, PTX ISA §9.7.14.5.8 "Matrix Fragments for mma.m16n8k16 with
//    floating point type" (Figure 79 for A, the B figure follows): groupID = lane >> 2,
//    tig = lane % 4.
//    A (16x16, a0..a7): row = groupID + 8*((i/2)%2), col = 2*tig + (i%2) + 8*(i/4).
//    B (16x8,  b0..b3): row = 2*tig + (i%2) + 8*(i/2), col = groupID.
//  - wgmma.mma_async.m64nNk16 accumulator D, f32 (N/2 registers d0..), PTX ISA §9.7.15.5.1.1.1
//    "Matrix Fragments for wgmma.mma_async.m64nNk16" (figure "WGMMA .m64nNk16 register fragment
//    layout for accumulator matrix D"): warp w = thread/32 of the warpgroup owns rows
//    16w..16w+15; row = 16w + groupID + 8*((i/2)%2), col = 8*(i/4) + 2*tig + (i%2). The same map
//    is CUTLASS's CLayout_64xN (cute/atom/mma_traits_sm90_gmma.hpp).
//  - v_mfma_f32_16x16x16f16 (CDNA2 gfx90a, 64-lane wavefront; the instruction is specified in
//    the "AMD Instinct MI200" Instruction Set Architecture Reference Guide, Feb 2022): register
//    layouts as printed by the AMD Matrix Instruction Calculator (ROCm/amd_matrix_instruction_
//    calculator, `--architecture cdna2 --instruction v_mfma_f32_16x16x16f16 --register-layout
//    --A-matrix|--B-matrix|--D-matrix`, e.g. A[0][0..3] = v0{0}.lo, v0{0}.hi, v1{0}.lo,
//    v1{0}.hi and A[0][4] = v0{16}.lo):
//    A[i][k]: lane = i + 16*(k/4), item k%4 (VGPR (k%4)/2, half k%2);
//    B[k][j]: lane = j + 16*(k/4), item k%4;
//    C/D[i][j] (f32): lane = j + 16*(i/4), VGPR i%4.
// Measured: the mma.sync A/B and wgmma m64n{8,24,256}k16 D tables equal the register maps read
// back on an H200 by tests/hw/FragmentProbe.cu (LayoutHw.MatchesH200Probe). The MFMA tables are
// not measured (no CDNA GPU here).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/analysis/Layouts.h"
#include "compiler/ir/DType.h"
#include "compiler/ir/Layout.h"

namespace ts::analysis {

/// mma.sync m16n8kX operand A of a block GEMM, logical shape (M, K), as
/// resources/ts_device.cuh GemmSS / GemmSSAtom walk it: warp w = (w/wn, w%wn) uses rows
/// (w/wn)*(M/wm).., k-step kk holds the A registers of atom (mi, kk). elemBytes selects the
/// atom: 2 = m16n8k16 (fp16/bf16, a0..a7), 1 = m16n8k32 (int8/uint8/fp8, a0..a15), 4 = m16n8k8
/// (tf32, a0..a3); all three are the same layout of 32-bit words (see HwLayouts.cpp). Every warp
/// of a warp-grid row needs the same A rows, so the layout is replicated over the wn warps of
/// that row (replicate = wn; the forward map names warp (w/wn)*wn, i.e. column 0).
/// local = (kk*kMI + mi)*(16/elemBytes) + i for element a_i (kMI = M/wm/16). Requires
/// M % (16*wm) == 0, K % atomK == 0 (atomK = 32/elemBytes). threads = 32*wm*wn,
/// localSize = kMI*(K/atomK)*(16/elemBytes). family "mma_a", params {M, K, wm, wn} (+ elemBytes
/// when it is not 2).
ir::Layout makeMmaOperandA(int64_t M, int64_t K, WarpPartition wp, int elemBytes = 2);

/// mma.sync m16n8kX operand B, logical shape (K, N) (row k, column n), as GemmSS walks it: warp
/// column w%wn uses columns (w%wn)*(N/wn).., registers b_i of atom (kk, ni). elemBytes as for
/// makeMmaOperandA (b0..b3, b0..b7, b0..b1). Replicated over the wm warps of a warp-grid column
/// (replicate = wm; forward names warp-grid row 0). local = (kk*kNI + ni)*(8/elemBytes) + i for
/// b_i (kNI = N/wn/8). Requires N % (8*wn) == 0, K % atomK == 0. threads = 32*wm*wn,
/// localSize = kNI*(K/atomK)*(8/elemBytes). family "mma_b", params {K, N, wm, wn} (+ elemBytes).
ir::Layout makeMmaOperandB(int64_t K, int64_t N, WarpPartition wp, int elemBytes = 2);

/// The mma.sync atom T.gemm uses for one operand/accumulator dtype pair on the sm_80 code path
/// (PTX ISA §9.7.14.5 "Matrix shape and data types" of mma). Every atom is m16n8 with the
/// m16n8 accumulator fragment of makeMmaAccumulator (c0..c3 at rows g, g+8 and columns 2t, 2t+1,
/// also for the .f16 and .s32 accumulators of §9.7.14.5.8 / §9.7.14.5.10), 4 A and 2 B registers
/// of 32 bits (makeMmaOperandA/B with elemBytes).
struct MmaAtom {
    int k = 16;          ///< K of one instruction: 16 (16-bit), 32 (8-bit), 8 (tf32)
    int elemBytes = 2;   ///< operand element size (the elemBytes of makeMmaOperandA/B)
    std::string ptx;     ///< the instruction as resources/ts_device.cuh issues it
    /// How the operands enter the instruction: "" (as stored), "tf32" (cvt.rna.tf32.f32 of each
    /// fp32 operand, round to nearest, ties away, 10-bit mantissa), "fp8->f16 below sm_89" (the
    /// fp8 mma needs sm_89; below it each fp8 register is widened to f16x2 exactly and the atom
    /// runs as two m16n8k16 .f32.f16 mma over the same K words).
    std::string operandConversion;
};

/// The atom for A/B dtype `ab` and accumulator dtype `c`, or nullopt with `why` saying which
/// pairs exist: {float16, bfloat16} x float32, float16 x float16, {int8, uint8} x int32,
/// {float8_e4m3, float8_e5m2} x float32, float32 (tf32) x float32.
std::optional<MmaAtom> selectMmaAtom(ir::DType ab, ir::DType c, std::string* why);
/// The MFMA atom of the HIP path (gfx90a, resources/ts_hip.h) for A/B dtype `ab` and accumulator
/// dtype `c`: v_mfma_f32_16x16x16f16 / v_mfma_f32_16x16x16bf16_1k (k = 16, operands and
/// accumulator in makeMfma16Layout), or nullopt with `why`: float16 or bfloat16 -> float32 only.
std::optional<MmaAtom> selectMfmaAtom(ir::DType ab, ir::DType c, std::string* why);

/// Value of operand element x as the atom multiplies it: tf32 rounding for float32 operands
/// (cvt.rna.tf32.f32: 10 mantissa bits, ties away from zero, PTX ISA §9.7.9.21), x otherwise
/// (fp16/bf16/fp8/int8 products are exact in the accumulator's precision).
double mmaOperandValue(ir::DType ab, double x);

/// Warpgroup grid and instruction width of a wgmma accumulator tiling.
struct WarpgroupPartition {
    int wgm = 1, wgn = 1;  ///< warpgroups along M and N (warpgroup g = (g/wgn, g%wgn))
    int64_t instN = 0;     ///< n of the wgmma.m64nNk16 instruction; 0 = the warpgroup tile width
};

/// wgmma.mma_async m64nNk16 f32 accumulator D over a block tile (M, N): warpgroup g owns the
/// (M/wgm) x (N/wgn) tile at (g/wgn, g%wgn), covered by (M/wgm/64) x (N/wgn/instN) atoms of
/// 64 x instN, atom (mi, ni) in registers (mi*NI + ni)*instN/2 + d_i (PTX register order).
/// Requires 8 <= instN <= 256, instN % 8 == 0, (M/wgm) % 64 == 0, (N/wgn) % instN == 0 (use
/// wgmmaLayoutError to check). threads = 128*wgm*wgn, localSize = (M/wgm/64)*(N/wgn/instN)*instN/2.
/// family "wgmma_c", params {M, N, wgm, wgn, instN}.
ir::Layout makeWgmmaAccumulator(int64_t M, int64_t N, WarpgroupPartition wg);
/// Empty if makeWgmmaAccumulator accepts these parameters, else why not.
std::string wgmmaLayoutError(int64_t M, int64_t N, WarpgroupPartition wg);

/// Operand / accumulator of v_mfma_f32_16x16x16f16 (gfx90a) tiled over a wm x wn grid of 64-lane
/// wavefronts, wave w at (w/wn, w%wn) like GemmSS's warps. `operand` is 'A' (shape (M, K),
/// replicated over wn), 'B' (shape (K, N), replicated over wm) or 'C' (shape (M, N), f32).
/// Atoms are 16x16; each thread holds 4 elements of an atom, local = atom*4 + item with atoms
/// ordered (kk, mi) for A, (kk, ni) for B and (mi, ni) for C. Shape arguments: (rows, cols) of
/// that operand; requires rows/grid and cols/grid to be multiples of 16 along the tiled dims.
/// threads = 64*wm*wn. family "mfma_a"/"mfma_b"/"mfma_c", params {rows, cols, wm, wn}.
ir::Layout makeMfma16Layout(char operand, int64_t rows, int64_t cols, WarpPartition wp);

/// The row values of makeMfma16Layout('C', M, N, wp) (the online-softmax row max/sum of an MFMA
/// accumulator): row i of wave row i/rw (rw = M/wm) lies in item i%4 of atom row (i%rw)/16 of the
/// 16 lanes 16*((i%16)/4) .. +15 of each of the wn waves of that row (lane = col%16 +
/// 16*((row%16)/4), item = row%4: AMD matrix instruction calculator, CDNA2, C/D of
/// v_mfma_f32_16x16x16f16). Shape (M,), local(i) = ((i%rw)/16)*4 + i%4, localSize = (rw/16)*4,
/// replicated over 16*wn threads, threads = 64*wm*wn. family "mfma_c_rows", params {M, wm, wn}.
ir::Layout makeMfma16AccumulatorRows(int64_t M, WarpPartition wp);

/// One entry of the hardware layout catalogue (for `tilec layout --builtin` and the IDE).
struct BuiltinLayoutInfo {
    std::string name;     ///< e.g. "mma_a", "wgmma_c"
    std::string usage;    ///< spec syntax, e.g. "wgmma_c:N"
    std::string summary;  ///< one line: instruction, operand, atom shape, threads
};
/// The catalogue, in display order: mma_a, mma_b, mma_c, wgmma_c, mfma_a, mfma_b, mfma_c,
/// ldmatrix, ldmatrix_t.
const std::vector<BuiltinLayoutInfo>& builtinLayouts();

/// Builds a catalogue layout from `spec` = NAME[:N] (N: wgmma's instruction n, default 64; the
/// matrix count 1/2/4 of ldmatrix, default 4; the operand bytes 1/2/4 of mma_a / mma_b, default
/// 2). `shape` = {rows, cols} of the block tile (empty:
/// the single-warp atom, or for wgmma_c 64 x N) and `grid` = {along rows, along cols} warps,
/// warpgroups or wavefronts (empty: 1x1). Returns nullptr and sets `why` on an unknown name or
/// parameters the layout does not accept.
ir::Layout makeBuiltinLayout(const std::string& spec, const std::vector<int64_t>& shape,
                             const std::vector<int>& grid, std::string* why);

}  // namespace ts::analysis
