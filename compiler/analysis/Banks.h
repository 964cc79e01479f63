// Shared-memory bank-conflict analysis of lowered IR (after lower-to-threads: flat element
// indices, thread variable tx, attrs "smem_offset.<buffer>"). For every shared-memory access
// instruction -- scalar ld/st.shared, 8/16-byte vectors of tl.copy_vec and tl.zero_vec, the
// shared destinations of tl.cp_async, and the ldmatrix loads inside tl.gemm_ss and tl.gemm_rs
// (B only; modelled from analysis/Ldmatrix.h, the port of ts_device.cuh GemmSS::load) -- it
// evaluates the byte address of each lane of each warp of one block, concretely over enclosing
// loop iterations (long loops are sampled evenly and weighted), and counts wavefronts against
// the ideal.
//
// The bank model (the rules this file implements; sources):
//  - 32 banks, each 4 bytes wide; successive 4-byte words map to successive banks; lanes reading
//    the same 4-byte word are served together (broadcast/multicast). CUDA C++ Programming Guide,
//    "Compute Capabilities", sections 5.x/8.x/9.0 "Shared Memory".
//  - A warp request is split into phases: one phase for accesses of <= 4 bytes per lane, two
//    half-warp phases (lanes 0-15, 16-31) for 8-byte accesses and four quarter-warp phases
//    (lanes 8q..8q+7) for 16-byte accesses, so that each phase moves at most 128 bytes. Conflicts
//    only count inside a phase. Programming Guide 3.x "Shared Memory" (64-bit mode) and NVIDIA's
//    GTC material on shared memory ("Shared memory bank conflicts", GTC 2018 S81006 / CUDA
//    optimization talks: 128-bit accesses are processed per quarter warp).
//  - Register packing of vector loads: the return path moves one 32-bit register per lane per
//    wavefront (128 B), so an 8/16-byte load needs 2/4 wavefronts; when every active lane shares
//    its address with lane n^1 (or with lane n^2) the returned registers are packed and the load
//    needs half as many (phases of 32 lanes for 8 B, 16 lanes for 16 B). Source: NVIDIA forum
//    answer "Unexpected shared memory bank conflict" (forums.developer.nvidia.com/t/77228, for
//    cc 7.x); measured on the H200 (sm_90): a warp-uniform LDS.128 costs 2 wavefronts
//    (bench/results/banks-*).
//  - ptxas vectorization: fully unrolled loops (T.unroll) whose iterations access consecutive
//    elements of a shared buffer are merged by ptxas into one 8- or 16-byte access when every
//    lane's first address is aligned to the merged width (measured on the H200: instruction
//    counts of the transposes and reductions in bench/results/banks-*). The walk models this:
//    per access site of an unrolled loop it groups iterations whose per-lane addresses are
//    contiguous and aligned (largest width first: 16, 8, 4 bytes) and reports the merged access
//    as its own row ("st.shared.v4 (16 B) = 4 x b32": four b32 accesses merged by ptxas). ptxas
//    proves alignment symbolically; the model checks it on the concrete addresses, so it can only
//    over-merge where ptxas fails to prove an alignment that holds.
//  - ldmatrix .x1/.x2/.x4 reads 1/2/4 matrices of 8 rows x 16 bytes; each matrix (the 8 row
//    addresses of lanes 8q..8q+7) is one 128-byte phase (PTX ISA §9.7.14.5.15).
//  - Wavefronts of a phase = the largest number of distinct 4-byte words that fall in one bank
//    (>= 1 when a lane is active); ideal = 1 per active phase. Excess = wavefronts - ideal; ways =
//    the largest per-phase wavefront count. The l1tex__data_bank_conflicts_* counters report
//    roughly the excess (Nsight Compute "Shared Memory" table), which bench/h200_banks.sh checks.
//
// The AMD LDS rules (BankRules::AmdLds, target hip:gfx90a; 64-lane wavefronts; LdsBanks.cpp):
//  - 32 banks, each 4 bytes wide: bank = (byte address / 4) % 32 (address bits 6:2); lanes
//    reading the same 4-byte word are served together. Sources: AMD Accelerated Parallel
//    Processing OpenCL Programming Guide, §6.2 "Local Memory (LDS) Optimization" (GCN); ROCm
//    Composable Kernel docs, conceptual/ck_tile/hardware/lds_bank_conflicts.rst
//    ("Understanding AMD GPU LDS and Bank Conflicts"); ROCm blog "Avoiding LDS Bank Conflicts on
//    AMD GPUs Using CK-Tile Framework" (MI-series: 32 banks of 4 bytes).
//  - A wave request is split into lane groups checked separately (phases), each moving at most
//    128 bytes: <= 4 bytes per lane: the two half-waves, lanes 0-31 and 32-63 (OpenCL guide:
//    "Threads 0 through 31 are checked for conflicts as are threads 32 through 63"); 8 bytes
//    (ds_read/write_b64): quarter-waves of 16 consecutive lanes (the same guide: a quarter-
//    wavefront of float2 accesses with unique address bits 6:2 is conflict-free); 16 bytes:
//    ds_write_b128 in 8 groups of 8 consecutive lanes, ds_read_b128 in the 8 groups
//    0-3+20-23, 4-7+16-19, 8-11+28-31, 12-15+24-27 and the same +32 (CK docs above; the groups
//    pair the lanes an MFMA operand read touches together).
//    The b32/b64 groups are the GCN guide's, assumed unchanged on CDNA2 (whose LDS keeps the GCN
//    organisation of 32 x 4-byte banks per the ROCm sources above); the b128 groups are CK's.
//  - Wavefronts of a phase as above (max distinct words per bank; the cycles the LDS needs);
//    SQ_LDS_BANK_CONFLICT counts roughly the excess cycles. Not measured: no AMD GPU here.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "compiler/ir/Layout.h"
#include "compiler/ir/Stmt.h"

namespace ts::analysis {

constexpr int kBanks = 32;     ///< shared-memory banks (Programming Guide, cc 5.x+)
constexpr int kBankBytes = 4;  ///< bank width in bytes
constexpr int kWarpSize = 32;
constexpr int kWaveSize = 64;  ///< AMD CDNA wavefront (gfx90a)
constexpr int kMaxLanes = 64;  ///< lanes a WarpRequest can hold

/// Which hardware's phase rules a request follows (see the file comment).
enum class BankRules : uint8_t {
    Nvidia,  ///< 32-lane warps, shared memory (sm_80, sm_90a)
    AmdLds,  ///< 64-lane wavefronts, LDS (gfx90a)
};

/// Physical element offset of logical index `idx` (rank >= 1) in a shared tile with layout `l`:
/// leading dims stack whole tiles, the last two are row-major with `padElems` extra elements per
/// row and the XOR swizzle of Swizzle.h relative to the tile base -- exactly what lower-to-threads
/// emits. A T.Layout index map (`l.offset`) is evaluated on the trailing dims, the one leading
/// dim (pipeline stage) stacking tiles of `l.physicalElems`. `eltBytes` is the element size.
int64_t sharedElementOffset(const ir::LayoutNode& l, const std::vector<int64_t>& idx, int eltBytes);

/// One warp- (or wave-) wide shared-memory request: per lane the byte address (-1 = inactive
/// lane) and the bytes per lane (1, 2, 4, 8, 16); `ldmatrix` = number of matrices (1, 2, 4) for
/// ldmatrix, in which case each lane's address is the start of a 16-byte row. `lanes` is 32
/// (BankRules::Nvidia) or 64 (BankRules::AmdLds); addresses past `lanes` are ignored.
struct WarpRequest {
    std::array<int64_t, kMaxLanes> addr;
    int bytes = 4;
    int ldmatrix = 0;
    bool load = false;  ///< a load (8/16-byte loads may pack registers, see above)
    BankRules rules = BankRules::Nvidia;
    int lanes = kWarpSize;
    WarpRequest() { addr.fill(-1); }
    /// An empty request under `rules` (lanes 32 or 64).
    static WarpRequest forRules(BankRules rules) {
        WarpRequest r;
        r.rules = rules;
        r.lanes = rules == BankRules::AmdLds ? kWaveSize : kWarpSize;
        return r;
    }
};

/// Where one lane's word landed (heatmap cells): lane, phase, bank, the wavefront (0-based,
/// within the phase) that serves it, and the 4-byte word index.
struct BankSlot {
    int lane = 0, phase = 0, bank = 0, wavefront = 0;
    int64_t word = 0;
};

/// Cost of one WarpRequest under the model above.
struct WarpCost {
    int phases = 0;                   ///< phases with at least one active lane
    int wavefronts = 0;               ///< sum over phases
    int ideal = 0;                    ///< one per active phase
    int ways = 0;                     ///< max wavefronts of one phase (1 = conflict-free)
    std::vector<BankSlot> bankSlots;  ///< filled when requested
};

/// Phases of a request. Nvidia: lanes of phase p are [p*len, (p+1)*len) with len = 32, 16 or 8
/// (halved count for register-packed 8/16-byte loads, see above). AmdLds: 2, 4 or 8 phases.
int phaseCount(const WarpRequest& r);
/// The lanes of phase p (0 <= p < phaseCount(r)), in order.
std::vector<int> phaseLaneList(const WarpRequest& r, int p);
/// The AMD LDS lane groups for `bytes` per lane (load: ds_read; else ds_write), see above.
std::vector<std::vector<int>> ldsLaneGroups(int bytes, bool load);
/// True when an 8/16-byte load qualifies for register packing: every active lane n has the
/// address of lane n^1 (when active), or every active lane that of lane n^2.
bool packedLoad(const WarpRequest& r);
/// Computes the wavefronts of `r`; fills `bankSlots` when `withSlots`.
WarpCost bankCost(const WarpRequest& r, bool withSlots = false);

/// Instruction classes reported by analyzeBanks.
enum class AccessKind : uint8_t { Load, Store, CpAsync, Ldmatrix, Atomic };
const char* accessKindName(AccessKind k);  ///< "ld", "st", "cp.async", "ldmatrix", "atom"

/// One static shared-memory access instruction and its cost summed over one block's warps and
/// its executions (loop iterations).
struct AccessReport {
    Span span;                ///< source position of the statement/expression
    std::string buffer;       ///< shared buffer name
    std::string instruction;  ///< e.g. "ld.shared.b32", "st.shared.v4 (16 B)", "cp.async 16 B",
                              ///< "ldmatrix.x4.trans", "ld.shared.v4 (16 B) = 4 x b32" (merged)
    AccessKind kind = AccessKind::Load;
    int bytes = 4;                     ///< bytes per lane (16 for ldmatrix rows)
    double executions = 0;             ///< warp-level executions per block (weighted when sampled)
    double wavefronts = 0, ideal = 0;  ///< per block
    int ways = 0;                      ///< worst phase over all executions
    bool sampled = false;              ///< a long loop was sampled; totals are scaled estimates
    bool unresolved = false;           ///< some address could not be evaluated (data-dependent)
    WarpRequest worst;       ///< the execution with the largest excess (for the bank view)
    std::string worstWhere;  ///< "warp 0, k=3, v_1=0" of that execution
    double excess() const { return wavefronts - ideal; }
    bool isLoad() const { return kind == AccessKind::Load || kind == AccessKind::Ldmatrix; }
};

/// Options: warps and iterations evaluated.
struct BankOptions {
    int64_t maxIterations = 256;  ///< per loop; longer loops are sampled evenly and weighted
};

/// The per-kernel result. Totals are per block; multiply by `blocks` for the whole grid (what
/// CUPTI's .sum counters measure).
struct KernelBankReport {
    std::string kernel;
    int64_t threads = 0, blocks = 1;
    std::vector<AccessReport> accesses;  ///< in program order
    std::vector<std::string> notes;  ///< model limits hit (blockIdx assumed 0, sampled loops, ...)
    double loadWavefronts = 0, loadIdeal = 0, storeWavefronts = 0,
           storeIdeal = 0;                           ///< ld/ldmatrix; st
    double cpAsyncWavefronts = 0, cpAsyncIdeal = 0;  ///< cp.async shared writes (separate counters)
    double loadExcess() const { return loadWavefronts - loadIdeal; }
    double storeExcess() const { return storeWavefronts - storeIdeal; }
};

/// Whole-grid predicted counters of `r` (per-block totals x blocks: what CUPTI's .sum counters
/// count), by key: ld_wavefronts, ld_ideal, ld_conflicts (ld.shared + ldmatrix), st_wavefronts,
/// st_ideal, st_conflicts, cp_async_wavefronts, cp_async_ideal, ldsm_wavefronts, ldsm_conflicts,
/// lds_wavefronts / lds_conflicts (ld.shared alone), and warp-level instruction counts
/// lds_instructions, sts_instructions, ldsm_instructions (smsp__inst_executed_op_*). Conflicts
/// are excess wavefronts. The one set of formulas of `tilec banks --json` and the Bank view.
std::map<std::string, double> kernelCounters(const KernelBankReport& r);

/// Analyzes a lowered PrimFunc (CompileResult::lowered after lower-to-threads). Never throws;
/// a function that is not flattened yields an empty report with a note.
KernelBankReport analyzeBanks(const ir::PrimFunc& lowered, const BankOptions& opts = {});

}  // namespace ts::analysis
