// Hopper (sm_90a) shared-memory facts: the operand tile layout that TMA writes and wgmma reads,
// the wgmma descriptor fields that describe it, and which T.gemm shapes the sm_90a lowering takes.
// One source for the lowering (compiler/transforms/LowerHopper.cpp, InjectPipelineTma.cpp), the
// thread interpreter, the runtime's tensor maps and the device header
// (resources/ts_device/hopper.cuh `wgmma_operand_desc`, which must compute the same addresses).
//
// Hardware facts and their sources:
//  - TMA swizzle (CUDA Driver API, CUtensorMapSwizzle; PTX ISA 8.x §9.7.9.27 "Tensor copy
//    swizzling modes"): with SWIZZLE_{32,64,128}B the 16-byte chunk bits [4, 4+b) of each shared
//    address are XORed with bits [7, 7+b), b = 1, 2, 3; the box's inner extent may not exceed the
//    swizzle span, and the pattern repeats every 8 x span bytes, so the destination is aligned to
//    that (we align tiles to 1024 bytes).
//  - wgmma operand layouts and descriptors (PTX ISA 8.x §9.7.15.5.1.2 "Shared Memory Matrix
//    Layout", §9.7.15.5.1.2.2 "Matrix Descriptor Format"): a swizzled operand is made of 8-row
//    "core matrix" groups whose rows are one swizzle span wide; K-major: rows are MN, the
//    stride-dimension byte offset (SBO) is the distance of 8-row groups (8 x span), the leading
//    offset is unused for swizzled K-major (1); MN-major: rows are K, SBO is again 8 x span and
//    the leading-dimension byte offset (LBO) is the distance between span-wide MN panels.
//    CUTLASS encodes the same (cute/arch/mma_sm90_desc.hpp make_gmma_desc: MN-major swizzled
//    LBO = stride between MN atoms, SBO = stride between 8-row K groups).
//  - imm-trans-a/b of wgmma.mma_async (§9.7.15.5.2) select MN-major operands (16-bit types).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/DType.h"
#include "compiler/ir/Layout.h"

namespace ts::analysis {

/// A stored rows x cols operand tile (cols contiguous) of eltBytes elements, cut into `panels`
/// column panels of panelBytes (= the swizzle span: min(cols*eltBytes, 128)) per row. Panel p
/// holds columns [p*panelElems, (p+1)*panelElems) as `rows` rows of panelBytes, contiguous.
struct WgmmaTileGeometry {
    int64_t rows = 0, cols = 0, eltBytes = 0;
    int64_t panelBytes = 0, panelElems = 0, panels = 0;
    int64_t bytes() const { return rows * cols * eltBytes; }
};

/// The geometry of a stored tile, or nullopt (with *why) when TMA + wgmma cannot use it: the row
/// must be 32 or 64 bytes or a multiple of 128, rows a multiple of 8 and at most 256 (TMA box).
/// Panels are the row's bytes up to 128 (the widest swizzle); `maxPanelBytes` 64 or 32 narrows
/// them (64- / 32-byte swizzle, PTX ISA §9.7.15.5.1.2) for a tile some wgmma reads from an MN
/// offset that is a multiple of the narrower panel only.
std::optional<WgmmaTileGeometry> wgmmaTileGeometry(int64_t rows, int64_t cols, int eltBytes,
                                                   std::string* why = nullptr, int maxPanelBytes = 128);
/// The panel bytes wgmmaTileGeometry gives a tile of `cols` elements of `eltBytes` by default.
inline int naturalPanelBytes(int64_t cols, int eltBytes) {
    const int64_t rowBytes = cols * eltBytes;
    return static_cast<int>(rowBytes < 128 ? rowBytes : 128);
}

/// Physical element offset of stored element (r, c) inside the tile:
///   p*rows*W + r*W + ((c % W) XOR (((r*P/128) % (P/16)) * (16/e)))   (W = panelElems, P = panelBytes)
/// i.e. the byte address bits 4.. XOR bits 7.. of the TMA swizzle, tile base 1024-aligned.
int64_t wgmmaSharedOffset(const WgmmaTileGeometry& g, int64_t r, int64_t c);

/// The shared layout of a (rows, cols) operand tile: family "wgmma_smem", params {rows, cols,
/// panelBytes}; `offset` is wgmmaSharedOffset as an IR expression, physicalElems = rows*cols.
ir::Layout makeWgmmaSharedLayout(const WgmmaTileGeometry& g);
/// The geometry back from a "wgmma_smem" layout (nullopt for other families).
std::optional<WgmmaTileGeometry> wgmmaGeometryOf(const ir::LayoutNode& l, int eltBytes);

/// Whether a fragment in `l` writes a tile of `eltBytes` elements in the wgmma operand layout
/// (128-byte panels) without bank conflicts: the tensor-core accumulators, whose warps hold per
/// register pair 8 consecutive rows x 4 threads of adjacent column pairs -- mma.sync m16n8 C
/// ("mma_c", PTX ISA 9.7.14.5.x m16n8k16 C/D fragment) and wgmma D ("wgmma_c", 9.7.15.5.1.1.1,
/// four such warps per m64) -- stored as 2-byte elements (fp16/bf16): the swizzle maps those 8
/// rows' 16-byte chunks onto 8 different chunks of a 128-byte line, so each 4-byte pair store is
/// one wavefront. 4-byte elements make 8-byte pairs over two chunks per row (2-way conflicts by
/// the bank model), 1-byte ones are unmeasured: neither is claimed.
bool accumulatorStagesConflictFree(const ir::LayoutNode& l, int eltBytes);

/// Descriptor fields (bytes, before the >>4 encoding) of k-step kk (16 K elements) at MN offset
/// mn0 of an operand tile: start offset from the tile base, LBO, SBO, swizzle bytes. `kMajor`:
/// the stored columns are K. Mirrors ts::wgmma_operand_desc of resources/ts_device/hopper.cuh.
struct WgmmaDescFields {
    int64_t startByte = 0, lboBytes = 0, sboBytes = 0, swizzleBytes = 0;
};
WgmmaDescFields wgmmaDescriptor(const WgmmaTileGeometry& g, bool kMajor, int64_t kk, int64_t mn0);

/// How T.gemm runs on sm_90a: `warpgroups` split M (each owns M/warpgroups rows as m64 tiles over
/// the whole N, one wgmma.m64nNk16 per 64 rows and k-step), operands in wgmma_smem tiles.
struct HopperGemmPlan {
    int64_t M = 0, N = 0, K = 0;
    int warpgroups = 1;  ///< warpgroups along M
    /// Warpgroups along N (the wgmma fragment path only: warpgroup g at (g/wgn, g%wgn) issues
    /// m64 x N/wgn tiles for its columns; wgmma_gemm_ss's WGN). The TMA path keeps 1.
    int wgn = 1;
    bool transA = false, transB = false;
    WgmmaTileGeometry a, b;  ///< stored tiles: A is M x K (K x M when transA), B K x N (N x K)
    /// The shared buffers' own geometry when an operand is a column slice of a wider tile read
    /// in place (wgmmaColumnSlice; = a, b for whole tiles): the layout infer-layouts requires.
    WgmmaTileGeometry aTile, bTile;
};

/// hopperGemmPlan for a grid of wgm x wgn warpgroups (the wgmma fragment path's warpgroup order):
/// the instruction of one warpgroup column (M over wgm warpgroups, N/wgn columns), B kept whole
/// (plan.N = N, plan.b = bTile = the K x N / N x K tile, plan.wgn = wgn). An MN-major B (!transB)
/// read by warpgroups side by side must be addressed at whole panels: N/wgn a multiple of its
/// panel elements (ts::wgmma_operand_desc). nullopt with *why otherwise.
std::optional<HopperGemmPlan> hopperGemmPlanGrid(int64_t M, int64_t N, int64_t K, int wgm, int wgn, ir::DType ab, ir::DType c,
                                                 bool transA, bool transB, std::string* why = nullptr, int maxPanelA = 128,
                                                 int maxPanelB = 128);

/// May the operand `sub` (a stored rows x cols tile as in HopperGemmPlan) be read in place as the
/// columns [col0, col0 + sub.cols) of the stored tile `parent` (same rows)? Yes when the slice is
/// whole panels of the parent: the same panel width (swizzle atom: 64 fp16/bf16 elements for
/// 128-byte rows) and col0 a multiple of it. The slice is then the parent's panels
/// col0/panelElems.. laid out exactly as a tile of its own (wgmmaSharedOffset), at element
/// offset wgmmaSharedOffset(parent, 0, col0), so the descriptors' start address moves and
/// nothing else. False with *why otherwise.
bool wgmmaColumnSlice(const WgmmaTileGeometry& parent, const WgmmaTileGeometry& sub, int64_t col0, std::string* why = nullptr);

/// The plan for C[M,N] (float32) += A (M x K) * B (K x N) of dtype ab with `threads` threads, or
/// nullopt with *why: fp16/bf16 operands, threads a multiple of 128, M a multiple of
/// 64*warpgroups, N in 16..256 step 16, K a multiple of 16, at most 128 accumulator registers
/// per thread, and both stored tiles with a valid geometry.
/// `maxPanelA` / `maxPanelB`: wgmmaTileGeometry's panel limit for the stored A / B tile.
std::optional<HopperGemmPlan> hopperGemmPlan(int64_t M, int64_t N, int64_t K, int64_t threads, ir::DType ab,
                                             ir::DType c, bool transA, bool transB, std::string* why = nullptr,
                                             int maxPanelA = 128, int maxPanelB = 128);

}  // namespace ts::analysis
