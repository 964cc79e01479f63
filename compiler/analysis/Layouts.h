// Constructors of the layouts the compiler uses, the single source of truth for codegen, the
// interpreter and the layout views (DESIGN.md §2 "One source of truth for hardware facts").
//
// mma.sync m16n8k16 accumulator (PTX ISA §9.7.14.5.8, "Matrix Fragments for mma.m16n8k16",
// C/D fragment): in each 16x8 atom, lane = 4*(row%8) + col/2, element e = (col%2) + 2*(row/8).
// resources/ts_device.cuh's gemm_ss indexes its accumulator registers exactly like
// makeMmaAccumulator below.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Layout.h"
#include "compiler/ir/Stmt.h"

namespace ts::analysis {

/// Warp grid of a block-level gemm: wm warps along M, wn along N.
///
/// Warp order. Plain (byWarpgroup false, mma.sync's gemm_ss): warp w sits at grid (w/wn, w%wn)
/// and owns the mw = M/wm consecutive rows (w/wn)*mw.. of its grid row. byWarpgroup (the wgmma
/// fragment path, PTX ISA 8.x §9.7.15.5.1.1.1 "Matrix fragments for wgmma.mma_async"): the warps
/// come in warpgroups of 4 (wm % 4 == 0, mw % 16 == 0); warpgroup g = w/4 sits at (g/wn, g%wn)
/// of a (wm/4) x wn grid and owns S = 4*mw rows as S/64 m64 tiles, in which warp k = w%4 holds
/// rows 16k..16k+15 of every tile. So atom row mi of warp w covers rows
///   (g/wn)*S + mi*64 + 16k ..      (byWarpgroup)        (w/wn)*mw + mi*16 ..      (plain)
/// which is wgmma's D fragment with the warpgroup grid (wm/4) x wn (makeWgmmaAccumulator with
/// instN = N/wn, element for element). With wn == 1 and mw == 16 both orders are the same
/// placement; constructors then normalise to plain, so existing layouts keep their parameters.
struct WarpPartition {
    int wm = 0, wn = 0;
    bool byWarpgroup = false;
};

/// Fragment of the float accumulator C[M][N] of gemm_ss with a wm x wn warp grid (in the
/// partition's warp order). Requires M % (16*wm) == 0 and N % (8*wn) == 0. Threads = 32*wm*wn;
/// localSize = (M/wm/16) * (N/wn/8) * 4; register ((mi*NI + ni)*4 + e of atom (mi, ni), NI = N/wn/8.
/// family "mma_c", params {M, N, wm, wn} (plain) or {M, N, wm, wn, 1} (byWarpgroup).
ir::Layout makeMmaAccumulator(int64_t M, int64_t N, WarpPartition wp);

/// Row values of an mma accumulator tile with M rows (the destination of T.reduce_*(acc, row,
/// dim=1) and the `row[i]` of a T.Parallel(i, j) over the accumulator): element i lives in every
/// thread that holds row i of makeMmaAccumulator(M, N, wp), for any N -- the 4 lanes of the quad
/// lane/4 == i%8 in each of the wn warps of warp-grid row i/(M/wm). Forward map: warp column 0,
/// lane 4*(i%8); local(i) = ((i % mw)/16)*2 + (i%16)/8 (mw = M/wm), i.e. the accumulator's
/// row halves e/2 of atom row mi in order. threads = 32*wm*wn, localSize = (mw/16)*2,
/// replicate = 4*wn. family "mma_c_rows", params {M, wm, wn} (plain) or {M, wm, wn, 1}
/// (byWarpgroup: the rows of atom row mi as in WarpPartition, local(i) = mi*2 + (i%16)/8).
ir::Layout makeMmaAccumulatorRows(int64_t M, WarpPartition wp);

/// Parameters of the "block" fragment family used for element-wise and reduction fragments:
/// rows are spread over groups of `gc` consecutive threads (gr = threads/gc row groups), each
/// thread holding `vec`-wide contiguous column vectors.
struct BlockFragmentParams {
    int64_t rows = 1, cols = 1;
    int64_t threads = 0;
    int64_t vec = 1, gc = 1, gr = 1;
    int64_t colChunksPerThread() const;  ///< ceil(cols / (vec*gc))
    int64_t rowsPerThread() const;       ///< ceil(rows / gr)
};

/// Chooses vec and gc for a rows x cols tile by cost: first the number of threads holding data,
/// then the widest vector (up to 16 bytes, dividing the row), then the largest gc (a power of two
/// <= 32 or a multiple of 32 dividing `threads`, at most the row's vector count). A tile with
/// fewer 16-byte vectors than threads thus gets narrower vectors rather than idle threads.
BlockFragmentParams chooseBlockFragment(int64_t rows, int64_t cols, int64_t threads, int eltBytes);

/// The 2-D (or 1-D when `oneD`, shape (cols,)) block fragment:
///   thread(i,j) = (i % gr)*gc + (j / vec) % gc
///   local(i,j)  = ((i / gr)*cpt + j / (vec*gc))*vec + j % vec      (cpt = colChunksPerThread)
/// Widths that are not a multiple of vec*gc (or heights of gr) leave padded slots: the inverse
/// then yields indices >= shape that users must guard (predicated tail).
ir::Layout makeBlockFragment(const BlockFragmentParams& p, bool oneD = false);

/// The (rows,) fragment holding one value per row of a block fragment, replicated over the gc
/// threads of the row group: thread(i) in {(i % gr)*gc + c}, local(i) = i / gr.
ir::Layout makeRowReduced(const BlockFragmentParams& p);

/// An M x N loop layout over the holders of mma_c_rows(M, wp) for widths the accumulator layout
/// cannot take (N not a multiple of 8*wn): column j of row i goes to holder j % (4*wn) of that
/// row (warp column (j % (4*wn))/4, lane 4*(i%8) + j%4), register rowslot(i)*C + j/(4*wn) with
/// C = ceil(N/(4*wn)) and rowslot(i) the register of row i in mma_c_rows. Its row companion is
/// mma_c_rows(M, wp). Widths not a multiple of 4*wn leave padded slots (j >= N). threads =
/// 32*wm*wn, localSize = (M/wm/16)*2*C. family "mma_c_rows_spread", params {M, N, wm, wn}
/// (plain) or {M, N, wm, wn, 1} (byWarpgroup).
ir::Layout makeMmaRowsSpread(int64_t M, int64_t N, WarpPartition wp);

/// The warp partition an "mma_c", "mma_c_rows" or "mma_c_rows_spread" layout was made with
/// (its warp order included), or nullopt for other layouts.
std::optional<WarpPartition> mmaWarpPartitionOf(const ir::LayoutNode& l);

/// The 1-D row-value companion of a 2-D fragment layout (values indexed by the row only, held
/// by every thread that holds some element of that row): makeRowReduced for "block" layouts,
/// makeMmaAccumulatorRows for "mma_c", makeMfma16AccumulatorRows (HwLayouts.h) for "mfma_c";
/// null for layouts without one.
ir::Layout rowCompanion(const ir::LayoutNode& l);

/// The 2-D layout of shape (rows, cols) whose row companion is `rowLayout` ("row_reduced" with
/// the same cols; for "mma_c_rows" the accumulator layout when cols tiles the warp grid, else
/// makeMmaRowsSpread; for "mfma_c_rows" the MFMA accumulator when cols is a multiple of 16*wn);
/// null otherwise.
ir::Layout layoutWithRowCompanion(const ir::LayoutNode& rowLayout, int64_t rows, int64_t cols);

/// A fragment every thread holds entirely (TileLang's replicated fragment): for small tables
/// read as scalars outside T.Parallel (`if block_mask[k] != 0:`). local = the row-major linear
/// index, threads = `threads`, replicate = `threads`, localSize = the element count; the forward
/// map names thread 0. family "replicated", params = shape.
ir::Layout makeReplicated(const std::vector<int64_t>& shape, int64_t threads);

/// Recovers the block parameters of a "block", "block1d" or "row_reduced" layout.
std::optional<BlockFragmentParams> blockParamsOf(const ir::LayoutNode& l);

/// Shared-memory tile layout: row-major with optional row padding and swizzle
/// (analysis/Swizzle.h). shape: (rows, cols) or higher rank (leading dims are stacked rows).
ir::Layout makeSharedLayout(const std::vector<int64_t>& shape, int eltBytes, int swizzleMode,
                            int64_t padElems = 0);

/// Evaluates an integer IR expression with the given variable values (the last binding of a
/// variable wins); nullopt if it contains anything but integer arithmetic (Binary with Python
/// floor // and %, C truncating Div, Unary, Select, integer Cast) over those variables, or
/// divides by zero. The one integer evaluator of compiler/analysis (banks, layouts, user maps).
std::optional<int64_t> evalInt(const ir::Expr& e,
                               const std::vector<std::pair<const ir::VarNode*, int64_t>>& env);

/// (thread, local) of a logical element of a fragment layout.
std::optional<std::pair<int64_t, int64_t>> fragmentLocate(const ir::LayoutNode& l,
                                                          const std::vector<int64_t>& idx);
/// Logical indices held by (thread, local) of a fragment layout (may be out of shape = padding).
std::optional<std::vector<int64_t>> fragmentInverse(const ir::LayoutNode& l, int64_t thread,
                                                    int64_t local);

/// Elements a shared buffer of `numel` logical elements occupies under f's layout for it: a
/// T.Layout index map gives each tile the map's physical extent, row padding adds padElems per row;
/// otherwise numel. plan-smem sizes buffers with it and the thread interpreter addresses them
/// with it (one rule, so the two cannot drift).
int64_t sharedPhysicalElems(const ir::PrimFuncNode& f, const ir::BufferNode& b, int64_t numel);

}  // namespace ts::analysis
