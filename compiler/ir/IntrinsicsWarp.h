// Warp shuffle as a value (kept out of Intrinsics.h, which most of the compiler includes).
#pragma once

namespace ts::ir::intrin {

/// tl.warp_shuffle(mask, value, src_lane, width): TileLang's T.tvm_warp_shuffle (TVM's
/// tvm_warp_shuffle, CUDA __shfl_sync): each thread gets `value` of lane (src_lane % width) of its
/// own group of `width` lanes (PTX ISA §9.7.8.6 shfl.sync, mode idx; CUDA C++ Programming Guide
/// "Warp Shuffle Functions"). Thread-level: codegen prints __shfl_sync (HIP: __shfl), the
/// thread interpreter evaluates it as a collective of the statement's active threads (every lane
/// of a group must take part).
inline constexpr const char* kWarpShuffle = "tl.warp_shuffle";

}  // namespace ts::ir::intrin
