// Names of the lowered intrinsics (CallNode::op) that lower-tile-ops and inject-pipeline emit
// and codegen/interpreter understand. Address arguments are `tl.address_of(<Load>)`.
#pragma once

namespace ts::ir::intrin {

/// tl.address_of(load) -> pointer to the loaded element (codegen: `&buf[idx]`).
inline constexpr const char* kAddressOf = "tl.address_of";
/// tl.cp_async(dst_addr, src_addr, bytes, pred): cp.async of 4/8/16 bytes global -> shared,
/// zero-filling the destination when pred is false (PTX ISA §9.7.9.25.3.1, src-size 0).
inline constexpr const char* kCpAsync = "tl.cp_async";
inline constexpr const char* kCpAsyncCommit = "tl.cp_async_commit";  ///< cp.async.commit_group
inline constexpr const char* kCpAsyncWait = "tl.cp_async_wait";      ///< cp.async.wait_group N
/// tl.copy_vec(dst_addr, src_addr, bytes): one vector load + store of 4/8/16 bytes.
inline constexpr const char* kCopyVec = "tl.copy_vec";
/// tl.store_pair(dst_addr, a, b): stores two adjacent elements with one 2x-wide store (the
/// destination is 2-element aligned); used for mma accumulator epilogues to global memory.
inline constexpr const char* kStorePair = "tl.store_pair";
/// tl.zero_vec(dst_addr, bytes): stores `bytes` zero bytes.
inline constexpr const char* kZeroVec = "tl.zero_vec";
/// __syncthreads() (bar.sync 0); printed as T.sync_threads().
inline constexpr const char* kSyncThreads = "sync_threads";
/// T.sync_grid(): a barrier across every block of the grid (CUDA C++ Programming Guide,
/// "Cooperative Groups", grid synchronization: cooperative_groups::this_grid().sync()). Every
/// thread of every block must reach it, so it sits outside thread-dependent control flow, and the
/// kernel needs a cooperative launch (all blocks co-resident): function attr "cooperative" = 1.
inline constexpr const char* kSyncGrid = "sync_grid";
/// tl.gemm_ss(A_addr, B_addr, C_addr, M, N, K, warp_m, warp_n, trans_A, trans_B, swizzle_A,
/// swizzle_B): block-level C += op(A)·op(B) from shared tiles (resources/ts_device.cuh gemm_ss).
inline constexpr const char* kGemmSS = "tl.gemm_ss";
/// tl.gemm_rs(A_regs_addr, B_addr, C_addr, M, N, K, warp_m, warp_n, trans_B, swizzle_B):
/// block-level C += A·op(B) with A (M x K) in registers laid out as the m16n8k16 accumulator of
/// an M x K tile on a warp_m x 1 grid (analysis::makeMmaAccumulator(M, K, {warp_m, 1}); the C
/// fragment of atoms (mi, 2kk), (mi, 2kk+1) is the A fragment of k-step kk) and B a shared tile
/// (resources/ts_device.cuh gemm_rs). warp_n is 1.
inline constexpr const char* kGemmRS = "tl.gemm_rs";
/// View arguments of tl.gemm_ss / tl.gemm_rs (after swizzle_B, before a warp role's two):
/// ldA, offA, ldB, offB, present only when an operand is a sub-region of a shared tile read in
/// place (compiler/ops/GemmSubTile.h): ld = elements per stored row of the parent tile (0: the
/// operand's own row), off = elements from the address argument to the operand's origin; the
/// swizzle is the parent's, anchored at the address argument (ts::GemmTiling). gemm_rs has
/// ldA = offA = 0. Returns the index of ldA in a call of `nargs` arguments, or 0 when absent.
inline unsigned gemmViewIndex(bool gemmRS, unsigned long nargs) {
    const unsigned base = gemmRS ? 10 : 12;
    return nargs == base + 4 || nargs == base + 6 ? base : 0;
}
// --- sm_90a (compiler/transforms/Hopper.h; resources/ts_device/hopper.cuh). "Elected": one
// thread of the block (thread 0) executes it for the block; the interpreters run it once.
/// tl.mbarrier_init(bar_addr, n[, arrivals]): elected; n consecutive mbarriers from bar_addr,
/// `arrivals` (default 1) expected arrivals each (PTX ISA §9.7.13.15.9), then
/// fence.mbarrier_init. A barrier must follow.
inline constexpr const char* kMbarrierInit = "tl.mbarrier_init";
/// tl.mbarrier_expect_tx(bar_addr, bytes): elected; the phase's one arrival, expecting `bytes`
/// transaction bytes (mbarrier.arrive.expect_tx, §9.7.13.15.12).
inline constexpr const char* kMbarrierExpectTx = "tl.mbarrier_expect_tx";
/// tl.mbarrier_arrive(bar_addr[, per_warp]): one arrival of every executing thread (mbarrier.arrive,
/// §9.7.13.15.13; release: the thread's earlier accesses happen before the phase completes).
/// per_warp != 0: one arrival per warp instead -- the warp's lanes synchronise (__syncwarp, which
/// orders their earlier accesses before lane 0's) and lane 0 arrives; the barrier's count is then
/// in warps. Whole warps must execute it. Why: 128-256 same-address arrivals per pipeline stage
/// serialise in the shared-memory atomic unit; 4-8 do not.
inline constexpr const char* kMbarrierArrive = "tl.mbarrier_arrive";
/// tl.mbarrier_wait(bar_addr, parity[, elected]): every thread (elected != 0: thread 0 only)
/// waits until the phase of that parity has completed (mbarrier.try_wait.parity, §9.7.13.15.16).
inline constexpr const char* kMbarrierWait = "tl.mbarrier_wait";
/// tl.tma_load(map, dst_addr, bar_addr, rows, panel_elems, panels, c_0, ..., c_{r-1}): elected;
/// the stored rows x (panels*panel_elems) tile at global element coordinates c (innermost
/// first: c_0 is the contiguous dimension) of tensor map `map` (PrimFunc attrs "tma_map.<map>",
/// whose box is panel_elems x rows along its row dimension x 1 along the others) into the
/// wgmma_smem tile at dst_addr, one cp.async.bulk.tensor.<r>d per panel, completing on bar_addr
/// (§9.7.9.25.5.2). Out-of-bounds elements read 0 and count as transaction bytes.
inline constexpr const char* kTmaLoad = "tl.tma_load";
/// tl.tma_store(map, src_addr, rows, panel_elems, panels, c_0, ..., c_{r-1}): elected; the stored
/// rows x (panels*panel_elems) shared tile at src_addr (row-major when the map's swizzle is 0, else
/// the wgmma_smem panels, as tl.tma_load lays them out) to global element coordinates c
/// (innermost first, as tl.tma_load) of tensor map `map`, one
/// cp.async.bulk.tensor.<r>d.global.shared::cta.bulk_group per panel, then
/// cp.async.bulk.commit_group: one bulk async-group (PTX ISA §9.7.9.25.5.2 cp.async.bulk.tensor;
/// cp.async.bulk.commit_group). Box elements outside the tensor are not written (the
/// bounds-guarded store of T.copy). Units: rows and panel_elems in elements, coordinates in
/// elements. The issuing thread's earlier generic writes of the tile must be made visible to the
/// async proxy first (tl.fence_proxy_async by every writer, then a block barrier).
inline constexpr const char* kTmaStore = "tl.tma_store";
/// tl.tma_store_wait(n, read): elected; cp.async.bulk.wait_group[.read] n (PTX ISA §9.7.9.27):
/// waits until at most n of the issuing thread's bulk async-groups are pending. read != 0: only
/// their reads of shared memory are complete (the tile may be overwritten after a block barrier);
/// read == 0: the groups are complete, their global writes performed (before kernel exit, and
/// between two stores that may write the same elements).
inline constexpr const char* kTmaStoreWait = "tl.tma_store_wait";
/// tl.tma_reduce_add(map, src_addr, rows, panel_elems, panels, c_0, ..., c_{r-1}): elected; as
/// tl.tma_store, but each element of the box is added to the tensor's element, atomically
/// (cp.reduce.async.bulk.tensor.<r>d.global.shared::cta.add.tile.bulk_group, PTX ISA
/// §9.7.9.25.5.3): T.atomic_add(dst, tile, use_tma=True). One bulk async-group, waited like a store.
inline constexpr const char* kTmaReduceAdd = "tl.tma_reduce_add";
/// tl.wgmma_ss(A_addr, B_addr, C_addr, M, N, K, warpgroups, trans_A, trans_B, wait, warpgroups_n,
/// clear): block-level C += op(A)·op(B) (C = op(A)·op(B) when `clear`: the first k-step's scale-d
/// is 0, PTX ISA §9.7.15.5.2) with wgmma.mma_async from wgmma_smem tiles into the wgmma
/// accumulator, committed as one group; then waits until at most `wait` groups are pending (0:
/// done; 1: the previous gemm's group is done). The warpgroups form a warpgroups x warpgroups_n
/// grid (> 1 on the wgmma fragment path only), each issuing m64 x N/warpgroups_n tiles of its
/// columns (accumulator makeWgmmaAccumulator(M, N, {warpgroups, warpgroups_n, N/warpgroups_n})).
/// A warp role's gemm appends its first thread and thread count after these (lower-tile-ops).
inline constexpr const char* kWgmmaSS = "tl.wgmma_ss";
/// tl.wgmma_rs(A_regs_addr, B_addr, C_addr, M, N, K, warpgroups, trans_B): block-level
/// C += A·op(B) with wgmma.mma_async, A (f16/bf16) from registers laid out as the m16n8k16
/// accumulator of an M x K tile on M/16 warps x 1 (k-step kk = registers 8kk..8kk+7, the wgmma A
/// fragment, §9.7.15.5.1.1), B a wgmma_smem tile, C that accumulator layout of M x N (= wgmma's
/// for 64 rows per warpgroup; with M/warpgroups a larger multiple of 64, the layout in warpgroup
/// order, analysis::WarpPartition, whose m64 tile mi starts at register mi*K/2 of A, mi*N/2 of C);
/// committed and waited to completion.
inline constexpr const char* kWgmmaRS = "tl.wgmma_rs";
/// tl.fence_proxy_async(): this thread's generic-proxy shared-memory writes become visible to
/// later async-proxy (wgmma, TMA) reads (fence.proxy.async.shared::cta, §9.7.13.4).
inline constexpr const char* kFenceProxyAsync = "tl.fence_proxy_async";
/// tl.warpgroup_turn(kind): ping-pong of the two warpgroups of a 256-thread block around their
/// wgmma issues (InjectPipelineTmaFragment.cpp), on named barriers 2 and 3 (bar.sync /
/// bar.arrive id, 256; PTX ISA §9.7.13.1). kind is a StrImm: "begin" (before the loop: warpgroup
/// 1 lets warpgroup 0 go first, then each waits for its turn), "wait" (wait for this warpgroup's
/// turn), "pass" (give the turn to the other warpgroup), "end" (after the loop: warpgroup 0's last
/// pass). It orders no memory access, only when each warpgroup issues: both interpreters run it
/// as a no-op (their results cannot depend on it), and the arrivals balance on every trip count.
inline constexpr const char* kWarpgroupTurn = "tl.warpgroup_turn";
/// tl.wgmma_wait(C_addr, regs, n): wgmma.wait_group n, then the `regs` accumulator registers
/// from C_addr are safe to read (§9.7.15.7).
inline constexpr const char* kWgmmaWait = "tl.wgmma_wait";
/// tl.wgmma_retire(name, n): the tile-level form of tl.wgmma_wait, placed by inject-pipeline
/// before lowering has registers (InjectPipelineTmaFragment.cpp's softmax overlap): `name`
/// (StrImm) is the fragment whose in-flight wgmma must be retired; lower-tile-ops turns it into
/// tl.wgmma_wait on that fragment's registers; the tile interpreter runs it as a no-op.
inline constexpr const char* kWgmmaRetire = "tl.wgmma_retire";
/// tl.warp_allreduce(op, value, width): xor-shuffle all-reduce over `width` lanes; op is a
/// StrImm "sum" | "max" | "min".
inline constexpr const char* kWarpAllreduce = "tl.warp_allreduce";
/// tl.atomic(op, addr, value[, order]): atomicAdd/atomicMax/atomicMin on global or shared memory;
/// `order` (StrImm "acquire" | "release" | "acq_rel" | "seq_cst", T.atomic_*(memory_order=))
/// makes it one ordered atom (ts::atomic_*_ordered, never vectorized); absent = relaxed.
inline constexpr const char* kAtomic = "tl.atomic";
/// atomic_prev(op, place, value[, order]) -> the value *place held before: T.atomic_add/max/min(...,
/// return_prev=True), `order` as tl.atomic's. `place` is the Load of the destination element (global or shared; its
/// indices are rewritten like any load's); op is a StrImm "add" | "max" | "min". Tile-level and
/// thread-level (not a tl.* intrinsic): both interpreters run it; codegen prints atomicAdd(&place,
/// value) (int32/uint32/float32 add, int32/uint32 max/min).
inline constexpr const char* kAtomicPrev = "atomic_prev";
/// rng_init(seed, subsequence, offset): (re)initialises the executing thread's Philox4x32-10
/// generator as cuRAND's curand_init does (resources/ts_device/philox.cuh; T.rng_init). Not a
/// tl.* intrinsic: tile-level and thread-level IR carry it; codegen declares the per-thread
/// state `ts_rng` at kernel scope (TS_RNG) when any rng_* call appears.
inline constexpr const char* kRngInit = "rng_init";
/// rng_rand() -> uint32: the thread's next 32-bit output (curand). Has a side effect: every
/// evaluation draws, in program order; passes must neither duplicate nor drop it.
inline constexpr const char* kRngRand = "rng_rand";
/// rng_rand_float("uniform" | "normal") -> float32 | float64 (the call's dtype): curand_uniform
/// / curand_normal (and their _double forms) on the thread's generator.
inline constexpr const char* kRngRandFloat = "rng_rand_float";
/// T.print(value, msg)
inline constexpr const char* kPrint = "print";
/// use_swizzle(panel, "row"|"col"): the kernel's block rasterization (T.use_swizzle, or chosen by
/// rasterize-blocks); codegen remaps the block indices (resources/ts_device/raster.cuh) and prints
/// nothing for the call (panel 0: T.use_swizzle(..., enable=False), no remap); the interpreters
/// run every block, so it is a no-op there.
inline constexpr const char* kUseSwizzle = "use_swizzle";

}  // namespace ts::ir::intrin
