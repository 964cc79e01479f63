// Vectorized global memory accesses (issue 10: rmsnorm/softmax ran on scalar 2/4-byte loads).
// After lower-to-threads, a T.copy between a global tensor and a fragment, and the global reads
// and writes of an element-wise T.Parallel loop, are unrolled per-thread loops
//     for r in [0, R): frag[r] = G[g(r) + h]          (or G[g(r) + h] = value(frag[r]))
// where g depends on r only (the layout's local -> column map) and h on block/thread indices.
// When every group of V consecutive r maps to V consecutive, V-aligned elements of G, the code
// generator emits one V-wide access per group instead of V scalar ones. The lowered IR is not
// changed (the interpreters run it as is); this module only proves that the rewrite is exact.
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/ir/IR.h"

namespace ts::codegen {

/// One global load or store of the loop body that becomes a V-wide access.
struct VectorAccess {
    const ir::BufferNode* buffer = nullptr;  ///< the global tensor
    const ir::ExprNode* load = nullptr;      ///< the LoadNode (null for the store)
    const ir::StoreNode* store = nullptr;    ///< the StoreNode (null for a load)
    ir::Expr index;                          ///< flat element index; evaluated at r = V*k it is V-aligned
    ir::Expr select;  ///< load only: the Select condition guarding it (uniform per group), or null
};

/// How to emit a vectorized loop: `width` elements per access (a power of two, width * element
/// bytes <= 16), the body's guard (the then-branch of a single If, uniform over each group of
/// `width` iterations; null if the body is unguarded), the statement run per element.
struct VectorLoopPlan {
    int64_t width = 1;
    ir::Expr guard;
    ir::Stmt element;  ///< the body without its guard
    std::vector<VectorAccess> accesses;
};

/// The plan for an unrolled per-thread loop, or width 1 (emit it as is) when no global access of
/// it can be vectorized exactly: index not of the form g(r) + h, a group not contiguous, alignment
/// not provable modulo the width (a slice starting at an odd column, a ragged row length), a
/// guard that is not uniform over a group, or a global tensor both read and written in the body.
/// The base pointer's alignment is not provable here: the emitter checks it at run time.
VectorLoopPlan planVectorLoop(const ir::ForNode& loop);

/// One vector reduction per group of `width` iterations of an unrolled per-thread loop whose body
/// (under an optional guard, uniform per group) is a float32 `T.atomic_add` into a global tensor
/// at contiguous, width-aligned elements -- the dQ accumulation of attention backward, where a
/// thread's mma/wgmma accumulator holds column pairs. Emitted as ts::atomic_add_v2/_v4
/// (red.global.add.v2/.v4.f32 on sm_90, PTX ISA 9.7.12.7 `red`, vector forms: .global only,
/// sm_90+; two/four scalar atomics elsewhere), which halves/quarters the L2 atomic operations.
/// TILESCOPE_VECTOR_ATOMICS=0 turns it off (for A/B timing); =4 uses the lane-pair v4 form below.
struct VectorAtomicPlan {
    int64_t width = 1;               ///< 1: not vectorizable
    ir::Expr guard;                  ///< uniform per group, or null
    const ir::BufferNode* buffer = nullptr;
    ir::Expr index;                  ///< flat element index (width-aligned at r = width*k)
    ir::Expr value;                  ///< the added value, an expression of the loop variable
};

VectorAtomicPlan planVectorAtomic(const ir::ForNode& loop);
/// A per-thread loop `for r in [0, R): D[r] = cast(E(r))` into a float16 / bfloat16 register
/// array from a float32 value, R even: a gemm accumulator converted for the next gemm
/// (FlashAttention's P = S, where E(r) = S[r]) or an element-wise result converted as it is made
/// (attention backward's dS = P * (dP - Delta)). Emitted as R/2 ts::cast_pair, one
/// cvt.rn.f16x2.f32 / cvt.rn.bf16x2.f32 per pair (resources/ts_device/portable.cuh) with the scalar
/// conversions' rounding. E may read any buffer but D (a pair computes E(r + 1) before D[r] is
/// stored) and call only side-effect-free math. dst null: not this loop.
/// TILESCOPE_PAIR_CAST=0 keeps the scalar conversions (for A/B timing).
struct PairCastPlan {
    const ir::BufferNode* dst = nullptr;
    const ir::BufferNode* src = nullptr;  ///< E(r) = src[r], a register array; else null
    ir::Expr value;                       ///< E(r), float32
};
PairCastPlan planPairCast(const ir::ForNode& loop);

/// The lane-pair form of the same reduction: the loop's elements come in column pairs (a
/// thread's mma/wgmma accumulator: r = 4m, 4m+1 at row i, r = 4m+2, 4m+3 at row i + 8, and lane
/// tx ^ 1 holds the neighbouring pair of both rows), so the two lanes swap one pair each
/// (__shfl_xor_sync) and each issues one red.global.add.v4.f32 for four contiguous elements:
/// the even lane for row i (its pair, then its partner's), the odd lane for row i + 8 -- half
/// the reductions of the v2 form. Proved by evaluating the index over every thread `tx` of the
/// block (`threads`, axis 0 only) and every r: per group of 4, the even lane's first pair is
/// 4-aligned and its partner's first pair follows it; the odd lane's second pair follows its
/// partner's second pair, which is 4-aligned; the part of the index free of r and tx divides
/// by 4; each guard conjunct free of r and tx, or `a < C` with a the same for both lanes and
/// both elements of a pair. Emitted as ts::atomic_add_pair_v4 (resources/ts_device.cuh: a
/// warp with inactive lanes, or a target before sm_90, takes two v2 reductions per lane). The
/// lowered IR is unchanged: the same values reach the same elements (atomics, any order).
/// Opt-in: TILESCOPE_VECTOR_ATOMICS=4 (lanePairAtomicsOn). The v2 form is the default because
/// it was faster where it counts: attention backward's 128x128 / 256-thread main kernel (255
/// registers) took 0.484-0.492 ms with v2 against 0.505-0.523 ms with the lane pairs (H100, two
/// interleaved rounds, bench/results/h100-2026-12-07j): there the shuffles and the four
/// consecutive registers each v4 needs serialize the reductions; the 64x64 / 128-thread kernel
/// (192 registers) gained 1% from the pairs (bench/results/h100-2026-12-06).
struct PairAtomicPlan {
    bool ok = false;
    ir::Expr guard;  ///< null when unguarded
    const ir::BufferNode* buffer = nullptr;
    ir::Expr index;
    ir::Expr value;
};

PairAtomicPlan planPairAtomic(const ir::ForNode& loop, int64_t threads);
/// Whether the code generator uses planPairAtomic (TILESCOPE_VECTOR_ATOMICS=4).
bool lanePairAtomicsOn();

/// A number known to divide every value of `e` (0: e is the constant 0) -- used for
/// the part of an index that does not depend on the loop variable.
int64_t knownDivisor(const ir::Expr& e);

}  // namespace ts::codegen
