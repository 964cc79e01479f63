// Warp shuffle as a value (kept out of Intrinsics.h, which most of the compiler includes).
#pragma once

#include <string_view>

namespace ts::ir::intrin {

/// tl.warp_shuffle(mask, value, src_lane, width): TileLang's T.tvm_warp_shuffle (TVM's
/// tvm_warp_shuffle, CUDA __shfl_sync): each thread gets `value` of lane (src_lane % width) of its
/// own group of `width` lanes (PTX ISA §9.7.8.6 shfl.sync, mode idx; CUDA C++ Programming Guide
/// "Warp Shuffle Functions"). Thread-level: codegen prints __shfl_sync (HIP: __shfl), the
/// thread interpreter evaluates it as a collective of the statement's active threads (every lane
/// of a group must take part).
inline constexpr const char* kWarpShuffle = "tl.warp_shuffle";

/// tl.warp_shuffle_xor / _down / _up(mask, value, delta, width): TileLang's T.shfl_xor,
/// T.shfl_down, T.shfl_up (CUDA __shfl_xor_sync / __shfl_down_sync / __shfl_up_sync, PTX ISA
/// §9.7.8.6 shfl.sync modes bfly, down, up): lane l reads `value` of lane l ^ delta, l + delta,
/// l - delta. A source past the last lane of l's group of `width` lanes (xor, down) or before its
/// first (up) gives l its own value; xor may read an earlier group. Evaluated as kWarpShuffle is.
inline constexpr const char* kWarpShuffleXor = "tl.warp_shuffle_xor";
inline constexpr const char* kWarpShuffleDown = "tl.warp_shuffle_down";
inline constexpr const char* kWarpShuffleUp = "tl.warp_shuffle_up";

/// Whether `op` is one of the four shuffles (all take (mask, value, lane or delta, width)).
inline bool isWarpShuffle(std::string_view op) {
    return op == kWarpShuffle || op == kWarpShuffleXor || op == kWarpShuffleDown || op == kWarpShuffleUp;
}

}  // namespace ts::ir::intrin
