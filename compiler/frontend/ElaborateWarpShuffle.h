// T.tvm_warp_shuffle(mask, value, src_lane, width, warp_size): TVM's warp shuffle as TileLang
// kernels call it (a register exchange inside a warp: each thread reads `value` of lane
// src_lane % width of its group of `width` lanes). Elaborates to tl.warp_shuffle
// (compiler/ir/IntrinsicsWarp.h), thread-level code: the kernel uses the thread index.
#pragma once
#include "compiler/frontend/MetaEval.h"

namespace ts::fe::elab {

/// Registers T.tvm_warp_shuffle in the elaborator `in`'s tilelang.language module.
void registerWarpShuffle(Interp& in);

}  // namespace ts::fe::elab
