// The sm_90a (Hopper) path of T.gemm / T.copy / T.Pipelined, spread over the passes it hooks:
//  - infer-layouts calls selectHopperGemm (SelectHopper.cpp): when the target is sm_90a and the
//    gemm, its operand copies and its loop qualify, the operand tiles get the wgmma_smem layout
//    and the accumulator the wgmma layout. The layouts are the record of the choice: later
//    passes read them, nothing else.
//  - inject-pipeline calls injectTmaPipeline (InjectPipelineTma.cpp) for a T.Pipelined loop
//    whose body copies into wgmma_smem tiles: TMA loads completing on mbarriers, S stages.
//  - lower-tile-ops calls lowerWgmma (LowerHopper.cpp) for a gemm whose accumulator has the
//    wgmma layout.
// Without sm_90a, or when a condition fails, the sm_80 path (cp.async, mma.sync) runs unchanged.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/support/Diagnostic.h"
#include "compiler/Target.h"
#include "compiler/analysis/WgmmaLayouts.h"
#include "compiler/ir/IR.h"
#include "compiler/transforms/LowerCommon.h"

namespace ts::xform {

/// True for targets with wgmma and TMA (sm_90a and later arch-specific Hopper targets).
bool targetHasWgmma(const Target& t);

/// Why `gemm`'s operands are not in the memories wgmma reads ("" when they are): A in shared
/// memory (or registers, a fragment, where `registerA`), B in shared memory, the accumulator a
/// fragment. Names the first operand that is not, its scope and what to do ("B ('x') is a
/// fragment: wgmma reads B from shared memory; copy it into a T.alloc_shared tile"). Both wgmma
/// paths ask it; their reason was "B is not a shared tile, or A neither a shared tile nor a
/// fragment", which named neither the operand nor its scope (helper-95).
std::string wgmmaOperandScopeWhy(const ir::TileOpNode& gemm, bool registerA);

/// The sm_90a plan of `gemm` in `f` (a kernel of `threads` threads), or nullopt with *why (the
/// sm_80 path is used then). Beyond analysis::hopperGemmPlan: A and B are whole shared tiles
/// without a user layout, each written only by one T.copy from a 2-D global tensor earlier in the
/// body of the T.Pipelined loop that runs the gemm, that TMA can load (row pitch a multiple of 16
/// bytes, constant shape, source not written by the kernel), and read by nothing but this gemm;
/// the accumulator is touched only by this gemm, T.clear/T.fill and copies out of it.
std::optional<analysis::HopperGemmPlan> selectHopperGemm(const ir::PrimFuncNode& f, const ir::TileOpNode& gemm,
                                                         int64_t threads, const Target& target,
                                                         std::string* why = nullptr);

/// The plan of `gemm` for wgmma on the mma.sync fragment layouts (SelectHopperFragment.cpp), or
/// nullopt with *why: for a gemm the TMA path declines. Whole warpgroups; M is 16 rows per warp
/// on a one-column warp grid (FullRow), where the m16n8k16 accumulator and register A fragments
/// are wgmma's, or (warpgroupOrder) any grid of m64 tiles analysis::partitionWarpgroups finds; A is a whole shared tile or a fragment (register A: wgmma rs), B a whole
/// shared tile, no shared operand with a user layout or a reader other than T.copy into it and
/// other T.gemm ops that take this path too (they take wgmma_smem, a function of the stored tile).
/// Loads keep the sm_80 engine; the plan's `a` geometry is unused for a register A.
/// `warpgroupOrder`: accumulators whose warps cannot each hold 16 rows of one warp column (M not
/// 16 rows per warp, or warpgroups along N) take the mma_c layout in warpgroup order (wgmma's D
/// fragment, analysis::WarpPartition::byWarpgroup, plan.wgn) for each gemm it returns true for
/// (empty: every gemm); false keeps that gemm off this path (infer-layouts' next try after a
/// layout conflict with a consumer of that order). Asked for `gemm` and for every gemm sharing a
/// shared operand tile with it, each about itself.
std::optional<analysis::HopperGemmPlan> selectHopperFragmentGemm(const ir::PrimFuncNode& f, const ir::TileOpNode& gemm,
                                                                 int64_t threads, const Target& target,
                                                                 std::string* why = nullptr,
                                                                 const std::function<bool(const ir::TileOpNode&)>& warpgroupOrder = {});

/// A global -> shared T.copy that TMA can load as one stored tile of geometry `g`: the dimension
/// (outermost-first) of the source the tile's rows run along, or nullopt with `why`. The source
/// is a kernel tensor of rank 2..5 and constant shape whose last dimension is a multiple of 16
/// bytes (cuTensorMapEncodeTiled's stride rule), the region spans the tile's columns along the
/// last dimension, its rows along one other and 1 along the rest; same dtype; whole tile; rows
/// at most 256 (the TMA box).
std::optional<int> tmaCopyRowDim(const ir::TileOpNode& copy, const analysis::WgmmaTileGeometry& g, std::string& why);
/// The rule of tmaCopyRowDim for a box between global region `global` and the whole shared tile
/// `tile` of geometry `g`, in either direction (`store`: tile -> global, `reduce`: a TMA
/// reduce-add of the tile into global, T.atomic_add(..., use_tma=True); both only change the
/// wording of *why). Same dtype, a kernel tensor of rank 2..5 and constant shape whose rows are a
/// multiple of 16 bytes, the region's columns 16-byte aligned and spanning the tile's along the
/// last dimension, its rows along one other, rows <= 256, the whole tile.
std::optional<int> tmaBoxRowDim(const ir::Region& global, const ir::Region& tile, const analysis::WgmmaTileGeometry& g, bool store,
                                std::string& why, bool reduce = false);


/// A global -> shared T.copy as one TMA tile load: the stored geometry the box writes (tensor
/// map box and swizzle), tmaCopyRowDim's row dimension, the source's kernel parameter index.
struct TmaLoadPlan {
    analysis::WgmmaTileGeometry geo;
    int rowDim = 0;
    int64_t param = -1;
};
/// Why the user turned TMA off for `copy`: "disable_tma=True" (the copy's own argument), or
/// "pass_configs tl.disable_tma_lower is True" (the kernel's @tilelang.jit, function attr
/// tma_lower_disabled, set by compile()); empty when neither. Every TMA choice asks this first:
/// the plain copy, the pipelined producers of every schedule and the staged epilogue.
std::string tmaDisabledWhy(const ir::PrimFuncNode& f, const ir::TileOpNode& copy);
/// THE legality rule of a TMA load (CopyTma.cpp), shared by the plain copy (lowerCopyTma) and the
/// pipelined producers of the cp.async schedules (pipelinedTmaWhyNot): target with TMA, no
/// disable_tma, same dtype, a TMA element type, a dense kernel tensor of rank 2..5 with rows a
/// multiple of 16 bytes that the kernel never writes, a whole 2-D tile whose layout TMA writes
/// (`dstLayout`: row-major, a wgmma operand tile, a 32/64/128-byte row swizzled over its span),
/// box <= 256 x 256. Empty when legal (*out filled), else why not. `rowTile`: a 1-D shared tile
/// without a layout (a row of lse or Delta values) is one box of 1 row; only the pipelined
/// schedules take it, where the load joins the stage's mbarrier instead of keeping a cp.async group
/// (outside a pipeline one small row gains nothing from TMA over plain loads).
std::string tmaLoadWhyNot(const ir::PrimFuncNode& f, const ir::TileOpNode& copy, const ir::Layout& dstLayout, const Target& target,
                          TmaLoadPlan* out, bool rowTile = false);
/// tmaLoadWhyNot for a producer copy of a T.Pipelined loop on a cp.async schedule (the layout from
/// f.layouts, before staging), plus: no hand-written mbarriers in the kernel; one stage of the
/// staged tile a multiple of 128 bytes (1024 when swizzled: TMA destination alignment).
std::string pipelinedTmaWhyNot(const ir::PrimFuncNode& f, const ir::TileOpNode& copy, const Target& target, TmaLoadPlan* out);
/// THE legality rule of a TMA store: target with TMA, no disable_tma, same dtype, a TMA element
/// type, a dense kernel tensor (not T.make_tensor) of rank 2..5 with rows a multiple of 16 bytes
/// that the kernel accesses only through this copy (a TMA store writes it through the async
/// proxy: any other read or write of it in the kernel would need its own ordering), the whole 2-D
/// source tile in a layout TMA reads (tmaDestGeometry's rule), box <= 256 x 256, the box's first
/// column 16-byte aligned. Empty when legal (*out: the tile's stored geometry, the
/// destination's row dimension and kernel parameter index), else why not.
/// `reduceOf`: the T.atomic_add(dst, tile, use_tma=True) that `copy` stands for (a TMA
/// reduce-add): other atomic adds into the destination are then allowed (additions commute, each
/// is atomic), any other access still is not.
std::string tmaStoreWhyNot(const ir::PrimFuncNode& f, const ir::TileOpNode& copy, const ir::Layout& srcLayout, const Target& target,
                           TmaLoadPlan* out, const ir::TileOpNode* reduceOf = nullptr);
/// The hint of the note that says why a copy does not take TMA (CopyTmaHint.cpp): what to do about
/// `why`, without repeating it; `store`: the copy is shared -> global (a TMA store's note);
/// `reduce`: a T.atomic_add(dst, tile, use_tma=True) that keeps per-element atomics (implies store);
/// `cpAsync`: a load of a T.Pipelined schedule, which keeps cp.async (a copy outside one keeps
/// plain loads).
std::string tmaWhyNotHint(const std::string& why, bool store = false, bool reduce = false, bool cpAsync = false);

/// The producers of a cp.async pipeline schedule (InjectPipeline.cpp, InjectPipelineWgmmaGeneric.cpp)
/// on sm_90a that TMA loads instead (InjectPipelineTmaLoads.cpp): per stage one mbarrier
/// `full[stage]` that the elected thread arms with the sum of the stage's TMA bytes (expect_tx),
/// then one tl.tma_load per TMA producer; the other producers stay cp.async copies. Consumers
/// wait on full[k % S] with parity (k / S) % 2 (k relative) next to the cp.async wait, before the
/// schedule's block barrier, which also orders the refill after every thread's reads of the
/// stage it overwrites. Each producer copy gets a note: TMA (box, bytes) or why not.
class PipelineTmaLoads {
public:
    /// `prod`: the producer copies (before restaging); `cons`: the other statements of the body;
    /// `noTma`: non-empty when the loop's context rules TMA out (a warp role, whose threads may
    /// not include the elected one; a block with threads along y/z), the reason for the notes.
    PipelineTmaLoads(const ir::PrimFuncNode& f, const ir::ForNode& loop, const std::vector<ir::Stmt>& prod, const std::vector<ir::Stmt>& cons,
                     int64_t S, const std::string& noTma, const Target& target, ir::Attrs& attrs, DiagnosticEngine* diags);
    bool any() const { return m_bytes > 0; }
    /// Whether some producer stays cp.async (the cp.async waits and commits stay then).
    bool anyCpAsync() const;
    /// Producers for iteration `iter` into stage `stage`: restageTiles + substitute of the cp.async
    /// ones, the elected expect_tx + TMA loads of the others.
    ir::Stmt producersAt(const std::vector<ir::Stmt>& prod, const std::map<const ir::BufferNode*, ir::Buffer>& local, ir::Expr iter,
                         ir::Expr stage) const;
    /// Before the prologue: the barrier allocation, a block barrier (earlier waits on a barrier a
    /// surrounding loop re-initializes are over), the elected init, fence.proxy.async, a barrier.
    ir::Stmt setup() const;
    /// Every thread waits for tile `rel` (relative iteration) at stage rel % S; null if no TMA.
    ir::Stmt waitFull(ir::Expr rel) const;

private:
    const ir::ForNode& m_loop;
    int64_t m_S;
    std::vector<std::optional<TmaLoadPlan>> m_plans;  // per producer
    std::vector<int64_t> m_maps;
    int64_t m_bytes = 0;
    ir::Buffer m_full;
};

/// The element coordinates of a TMA load of region `src` (innermost first, as tl.tma_load takes
/// them), with `at` substituted.
std::vector<ir::Expr> tmaCoordinates(const ir::Region& src, const std::unordered_map<const ir::VarNode*, ir::Expr>& at);
/// The boxes of stored geometry `g` as the TMA notes print them: "1 box of 64 rows x 32 columns"
/// or "2 boxes of 128 rows x 64 columns, 128-byte swizzle" (one box per swizzle panel). Rows and
/// columns are named because the bare "32 x 64" the notes printed was the tensor map's order
/// (innermost first, columns x rows), which reads as rows x columns (fresh-user finding).
std::string tmaBoxesText(const analysis::WgmmaTileGeometry& g);

/// The copies of one T.Pipelined loop that the fragment-path TMA schedule loads
/// (InjectPipelineTmaFragment.cpp): copies into the shared operand tiles of wgmma gemms on the
/// mma.sync fragment layouts (selectHopperFragmentGemm), each TMA-loadable (tmaCopyRowDim).
struct FragmentTmaCopy {
    const ir::TileOpNode* copy = nullptr;
    int64_t param = -1;  ///< kernel tensor index of the source
    int rowDim = 0;      ///< tmaCopyRowDim
    /// A 1-D tile that no gemm reads (a row of lse/Delta values, read by the threads): one box of
    /// one row, stored row-major (written operands schedule only, see below).
    bool row = false;
};
/// The TMA copies of `loop` (a T.Pipelined loop of `f`) or nullopt with *why: every global ->
/// shared copy in the loop body is a top-level statement that fills a shared operand tile of a
/// fragment-path wgmma gemm of the same body, TMA-loadable, from a kernel tensor the kernel
/// never writes, each tile loaded once in the loop; nothing else writes any operand tile in the
/// loop (tiles not loaded there are made visible to wgmma once, before it); at least one copy.
/// TILESCOPE_HOPPER_NO_FRAGMENT_TMA=1 declines (measurement switch: the cp.async schedule).
/// With TILESCOPE_HOPPER_TMA_WRITTEN_OPERANDS=1 (off until the H200 measures it; MHA backward's
/// shape) two more things are taken: copies into 1-D tiles that no gemm reads (row tiles, by
/// pipelinedTmaWhyNot's rule), and operand tiles that the body writes with ordinary stores
/// (dS^T), returned in *writtenOperands: every write of such a tile precedes, at the top level
/// of the body, every access that reads it, the first reader is a fragment-path gemm (its proxy
/// fence and block barrier order the writes), the tile is touched only by its own name and only
/// in the loop. The schedule gives it two copies (iteration k writes copy k % 2), so the write of
/// iteration k + 2 follows the barrier of iteration k + 1, which every thread reaches after its
/// wgmma of iteration k retired: one block barrier per iteration.
std::optional<std::vector<FragmentTmaCopy>> fragmentTmaCopies(const ir::PrimFuncNode& f, const ir::ForNode& loop,
                                                              int64_t threads, const Target& target, std::string* why = nullptr,
                                                              std::set<const ir::BufferNode*>* writtenOperands = nullptr);

/// On the consumer statements of a pipelined body (InjectPipeline.cpp, before restaging): marks
/// the fragment-path gemms whose operand tiles saw no generic-proxy write since the last proxy
/// fence + barrier as operands-ready (no fence, no barrier); `fencedAtTop`: the iteration begins
/// with everything fenced. Returns whether the body ends clean (each of its generic shared writes
/// fenced by a later gemm of the body, the last gemm waited), so the next iteration's top needs
/// no fence for them. pairIndependentWgmmas then leaves a gemm in flight (wait_group 1) across
/// the statements that may run beside it, up to the next gemm, whose wait retires both.
bool dropRepeatedWgmmaFences(std::vector<ir::Stmt>& body, bool fencedAtTop, const ir::Attrs& funcAttrs);
void pairIndependentWgmmas(std::vector<ir::Stmt>& body, const ir::PrimFuncNode& func);

/// The fragment-path TMA schedule of `loop` (InjectPipelineTmaFragment.cpp), or null when
/// fragmentTmaCopies declines; tensor maps and staged tiles as for injectTmaPipeline.
ir::Stmt injectTmaFragmentPipeline(const ir::ForNode& loop, const ir::PrimFuncNode& f, int64_t threads, const Target& target,
                                   ir::Attrs& attrs, std::map<const ir::BufferNode*, ir::Buffer>& staged);

/// The sm_90a cp.async schedule of T.Pipelined loop `loop` (InjectPipelineWgmmaGeneric.cpp) whose
/// trailing fragment-path gemms read a shared operand tile that the body's earlier statements
/// write with ordinary stores (the fused RMSNorm -> GEMM's X * G tile): that tile gets two copies
/// (iteration k % 2), the copies in `prod` (async, their tiles staged in `local`, S = num_stages
/// >= 3 stages) run S-2 tiles ahead, and each iteration's gemms stay in flight into the next
/// (wait_group G); the last iteration is peeled and waited. `cons`: the other statements, in
/// order; `f`: the function (its body: the tile must not be used outside the loop; its attrs:
/// views, ir/Views.h); `staged` gets the two-copy tiles. Null when it does not apply (then the
/// plain cp.async schedule runs).
ir::Stmt injectGenericOperandInflight(const ir::ForNode& loop, const ir::PrimFuncNode& f, const std::vector<ir::Stmt>& cons,
                                      const std::vector<ir::Stmt>& prod, std::map<const ir::BufferNode*, ir::Buffer>& local,
                                      std::map<const ir::BufferNode*, ir::Buffer>& staged, int64_t S, const Target& target,
                                      const PipelineTmaLoads& tma);
/// Whether inject-pipeline gives the planned T.Pipelined loop `loop` (plan-pipelines' attrs) of
/// function `f` the schedule of injectGenericOperandInflight on `target` (the static timeline
/// draws that schedule then).
bool genericOperandInflightApplies(const ir::ForNode& loop, const ir::PrimFuncNode& f, const Target& target);
/// `body` without its tl.warpgroup_turn calls when a loop holding some of them also holds a
/// block or named barrier (lowering put one there): the two warpgroups, each waiting for the
/// other's turn at a different barrier, would never meet there. Else `body` itself. Called by
/// insert-sync, after the last pass that adds barriers inside loops.
ir::Stmt dropUnsafeWarpgroupTurns(const ir::Stmt& body);

/// Index of the tensor map for (param, geometry, row dimension) in `attrs`, appending
/// "tma_map.<i>" = {param, box inner, box outer, swizzle bytes, row dim} when new.
int64_t tensorMapFor(ir::Attrs& attrs, int64_t param, const analysis::WgmmaTileGeometry& g, int rowDim);

/// Rewrites a T.Pipelined loop whose body has copies into wgmma_smem tiles into the TMA +
/// mbarrier schedule (InjectPipelineTma.cpp); null when the loop has none. Adds the tensor-map
/// attrs ("tma_maps": count, "tma_map.<i>": {param index, box inner, box outer, swizzle bytes})
/// to `attrs`; `staged` collects the multi-buffered tiles (original -> staged buffer).
/// `threads` is the block's thread count (the arrivals per phase of the empty barriers).
ir::Stmt injectTmaPipeline(const ir::ForNode& loop, const ir::PrimFuncNode& f, int64_t threads, ir::Attrs& attrs,
                           std::map<const ir::BufferNode*, ir::Buffer>& staged);

/// The empty barriers of the TMA pipelines count threads: every consumer thread releases a stage
/// with one arrival. TILESCOPE_HOPPER_WARP_ARRIVE=1 (measurement switch, whole warps only) makes
/// them count warps instead (tl.mbarrier_arrive per_warp: __syncwarp, lane 0 arrives); the H200
/// showed no gain from it (2026-12-03), so it is off.
/// stageReleaseCount: the empty barrier's arrivals per phase for a block of `threads` consumers;
/// releaseStage: the matching arrival on `bar` (InjectPipelineTma.cpp).
int64_t stageReleaseCount(int64_t threads);
ir::Stmt releaseStage(ir::Expr bar, int64_t threads, Span sp);

/// The storage a statement reads and writes: tile-op regions by the op's access description
/// (compiler/ops/Registry.h), element loads and stores (InjectPipelineWgmmaGeneric.cpp), each
/// by the name of the buffer whose storage it lies on (ir/Views.h storageName: a view of a tile
/// or fragment is that tile or fragment); `viewed` the storage touched through a view.
struct BufferTouch {
    std::set<std::string> reads, writes, viewed;
    bool any(const std::string& storage) const { return reads.count(storage) || writes.count(storage); }
};
BufferTouch touchOf(const ir::PrimFuncNode& f, const ir::Stmt& s);

/// Whether top-level statement `s` of a loop body stores every element of shared tile `b` (by
/// name) on every execution: a T.copy into the whole tile from on-chip memory (a global source may
/// be clipped at the tensor's edge), a T.fill / T.clear of the whole tile, or a T.Parallel nest
/// whose body stores b[...] indexed by its variables, each once, in any order (b[j, i] too), each
/// loop from 0 over the extent of the dimension it indexes, outside any condition. The two-copy schedules of a written operand tile (fragmentTmaCopies,
/// injectGenericOperandInflight) need one: iteration k writes copy k % 2, so an element that
/// iteration k does not write still holds iteration k - 2's value, where the program reads
/// iteration k - 1's (a write under `if k % 2 == 0`, or of half the tile, read NaN or stale
/// values on the thread interpreter).
bool writesWholeTile(const ir::Stmt& s, const ir::BufferNode& b);

/// Rewrites accesses of the multi-buffered tiles in `staged` (original -> staged buffer with a
/// leading stage dimension) to stage `stage` (InjectPipeline.cpp).
ir::Stmt restageTiles(const ir::Stmt& s, const std::map<const ir::BufferNode*, ir::Buffer>& staged, ir::Expr stage);

/// tl.wgmma_ss for a gemm whose accumulator has the "wgmma_c" layout (LowerHopper.cpp).
ir::Stmt lowerWgmma(lower::Ctx& c, const ir::TileOpNode& op);

/// A gemm chosen by selectHopperFragmentGemm (attr "wgmma_fragment"): fence.proxy.async and a
/// barrier (the generic-proxy writes of the operand tiles become visible to wgmma), then
/// tl.wgmma_ss, or tl.wgmma_rs for a register A, waited to completion (LowerHopper.cpp).
ir::Stmt lowerWgmmaFragment(lower::Ctx& c, const ir::TileOpNode& op);

/// For a wgmma accumulator: tl.wgmma_wait(0) on its registers, which an op that reads or writes
/// them emits first (a pipelined gemm may still be in flight); null for other fragments. The wait
/// carries `at`, the span of that op (the static timeline and the debugger place it on the op's
/// source line, not on the accumulator's declaration).
ir::Stmt lowerWgmmaWait(lower::Ctx& c, const lower::LoweredFragment& f, const Span& at);

}  // namespace ts::xform
