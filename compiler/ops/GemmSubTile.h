// A T.gemm operand that is a sub-region of a shared tile (Q_shared[:, 64:128],
// KV_shared[stage, :, :dim // 2]) read in place instead of through a copy: the answer of
// gemmSubTile is the 2-D matrix's base address, its stored row length and the origin's offset,
// which tl.gemm_ss / tl.gemm_rs carry as their view arguments (compiler/ir/Intrinsics.h) and
// ts::gemm_ss folds into its ldmatrix addresses with the parent's swizzle
// (resources/ts_device.cuh GemmTiling). Used by the block-gemm lowering (GemmSm80.cpp).
#pragma once
#include <optional>
#include <string>

#include "compiler/ir/IR.h"
#include "compiler/target/Target.h"

namespace ts::ops {

/// How gemm_ss addresses an operand read in place.
struct GemmSubTile {
    ir::Expr base;        ///< tl.address_of the element the operand's offsets count from (null: not in place)
    int64_t ld = 0;       ///< elements per stored row of the parent tile
    int64_t offset = 0;   ///< elements from `base` to the operand's origin (row0 * ld + col0, static part)
};

/// The in-place addressing of shared operand region `r` (the last two dims are the matrix, the
/// leading ones must have extent 1), or nullopt with the reason in `why`. `swizzleBytes` is the
/// parent tile's swizzle mode (0/32/64/128). Rules (ts::swizzle, analysis/Swizzle.h): constant
/// bounds of the last two dims go into `offset`, which must be 16-byte aligned (ldmatrix rows);
/// a bound that is not constant moves `base`, which keeps the swizzle only when it moves by
/// whole 128-byte lines inside a row (columns, rows >= 128 B) or whole 8-row key periods
/// (rows), or by 16-byte multiples when the tile is not swizzled. The HIP MFMA gemm reads
/// whole tiles only.
std::optional<GemmSubTile> gemmSubTile(const ir::Region& r, int swizzleBytes, const Target& target, std::string* why);

}  // namespace ts::ops
