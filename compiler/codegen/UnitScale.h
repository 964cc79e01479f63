// Skipping a per-row rescale by exactly one. An online softmax (FlashAttention, flash decoding,
// MLA) rescales its output accumulator every iteration by alpha = exp2(m_prev - m): per thread
//     for r in T.unroll(R): acc[r] = acc[r] * alpha[f(r)]        (alpha: a few registers)
// -- 64 multiplies of a 128-wide head per thread, between the softmax and the P V gemm that
// accumulates into acc. Once the running maxima settle, alpha is exactly 1.0 for most rows and
// the loop changes nothing (x * 1.0 == x for every float, NaN and -0 included). Guarded by
// `if (alpha[0] != 1 || alpha[1] != 1)`, a thread whose rows kept their maxima skips it; a warp
// runs it when any of its threads needs it, so the result is the same bits either way.
// OFF unless TILESCOPE_UNIT_SCALE_SKIP=1: measured slower. H100, 2026-12-06 (bench/results/
// h100-2026-12-06d/call-06l), attention 128x64 / 2 stages, two runs each, interleaved: B1 H16
// S4096 D128 fp16 0.2428 / 0.2445 ms with the guard against 0.2360 / 0.2362 without (3% slower),
// bf16 0.2367 / 0.2414 against 0.2310 / 0.2312, causal B4 H32 1.056 / 1.083 against 1.018 / 1.024;
// correct on the GPU 9/9. The multiplies were not the critical path (the branch splits the
// softmax block that ptxas schedules around the wgmma; 125 registers against 127).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "compiler/ir/Stmt.h"

namespace ts::codegen {

/// The scale array of an unrolled loop of the form above: one store `X[i] = X[i] * Y[e]` (either
/// operand order), X and Y per-thread float arrays, Y with at most kMaxUnitScaleElements
/// elements (all of them compared). nullopt for any other loop.
inline constexpr int64_t kMaxUnitScaleElements = 8;
struct UnitScale {
    ir::Buffer scale;   ///< Y
    int64_t elements;   ///< Y's element count (1..kMaxUnitScaleElements)
};
std::optional<UnitScale> unitScaleLoop(const ir::ForNode& loop);

/// The guard's condition, "Y[0] != 1.0f || Y[1] != 1.0f", each element printed by `print`.
std::string unitScaleGuard(const UnitScale& u, Span at, const std::function<std::string(const ir::Expr&)>& print);

/// Whether codegen guards such loops (TILESCOPE_UNIT_SCALE_SKIP=1; off by default, see above).
bool unitScaleSkipEnabled();

}  // namespace ts::codegen
